# source: https://github.com/Lightning-AI/torchmetrics/pull/1982
# kind: tensor_no_device_in_forward
# bug: the IoU compute function returned a bare torch.tensor(0.0) (CPU) in its degenerate branch while the normal branch returned a tensor on the inputs' device; the fix moved the constant to the device of the IoU values.
# split: test2
import torch


def iou_from_counts(intersection, union, ignore_empty=True):
    valid = union > 0
    if ignore_empty and not valid.any():
        return torch.tensor(0.0)  # bug: tensor_no_device_in_forward
    scores = intersection[valid].float() / union[valid].float()
    return scores.mean()


class BoxIoU(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("inter", torch.zeros(0))
        self.register_buffer("union", torch.zeros(0))

    def update(self, inter, union):
        self.inter = torch.cat([self.inter, inter.float()])
        self.union = torch.cat([self.union, union.float()])

    def compute(self):
        return iou_from_counts(self.inter, self.union)
