# source: https://github.com/fastai/fastai/pull/2421
# kind: tensor_no_device_in_forward
# bug: The roc_curve metric prepended a zero made with torch.zeros(1) (default CPU device) to CUDA cumulative counts, so it failed on GPU; the merged fix uses fps.new_zeros(1), which follows the input's device.
# split: dev
import torch


def roc_points(scores, labels):
    order = torch.argsort(scores, descending=True)
    labels = labels[order].float()
    tps = torch.cumsum(labels, 0)
    fps = torch.cumsum(1 - labels, 0)
    origin = torch.zeros(1)  # bug: tensor_no_device_in_forward
    tps = torch.cat([origin, tps])
    fps = torch.cat([origin, fps])
    tpr = tps / tps[-1].clamp(min=1)
    fpr = fps / fps[-1].clamp(min=1)
    return fpr, tpr


def auc(scores, labels):
    fpr, tpr = roc_points(scores, labels)
    return torch.trapz(tpr, fpr).item()


if __name__ == "__main__":
    s = torch.rand(100, device="cuda")
    y = (torch.rand(100, device="cuda") > 0.5).long()
    print(auc(s, y))
