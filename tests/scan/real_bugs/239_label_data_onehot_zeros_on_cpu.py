# source: https://github.com/open-mmlab/mmengine/pull/291
# also: https://github.com/open-mmlab/mmengine/commit/c90b95a44b1d05340425dbd73bb1ea5ec9765326
# kind: tensor_no_device_in_forward
# bug: LabelData.label_to_onehot() built the one-hot vector with `torch.zeros((num_classes,), dtype=torch.int64)` and no device, then scattered the label into it, so a CUDA label produced a CPU one-hot (or failed to index), and the data sample's gt labels ended up on a different device from the predictions; the fix allocates it with `label.new_zeros(...)` and the PR adds a CUDA test checking the devices match.
# split: test10
import torch


class LabelData:
    def __init__(self, **fields):
        self.__dict__.update(fields)

    @staticmethod
    def label_to_onehot(label, num_classes):
        assert isinstance(label, torch.Tensor)
        onehot = torch.zeros((num_classes,), dtype=torch.int64)  # bug: tensor_no_device_in_forward
        assert label.max().item() < num_classes
        onehot[label] = 1
        return onehot

    @staticmethod
    def onehot_to_label(onehot):
        assert isinstance(onehot, torch.Tensor)
        return onehot.nonzero().squeeze(-1)


class ClsDataSample:
    def __init__(self):
        self.gt_label = LabelData()
        self.pred_label = LabelData()

    def set_gt_label(self, label, num_classes):
        self.gt_label.label = label
        self.gt_label.score = LabelData.label_to_onehot(label, num_classes)
        return self

    def set_pred_score(self, score):
        self.pred_label.score = score
        return self


def multilabel_accuracy(samples, thr=0.5):
    hits = [((s.pred_label.score > thr).long() == s.gt_label.score).float().mean() for s in samples]
    return torch.stack(hits).mean()


def evaluate(model, loader, num_classes, device="cuda"):
    model = model.to(device).eval()
    samples = []
    with torch.no_grad():
        for imgs, labels in loader:
            imgs = imgs.to(device)
            scores = torch.sigmoid(model(imgs))
            for score, label in zip(scores, labels):
                s = ClsDataSample().set_gt_label(label.to(device), num_classes).set_pred_score(score)
                samples.append(s)
    return multilabel_accuracy(samples)
