# source: https://github.com/open-mmlab/mmaction2/pull/1188
# also: https://github.com/open-mmlab/mmaction2/commit/a9719428d5830788025b632fcdbdb97ba2dac2a2
# kind: attribute_not_buffer
# bug: the weighted cross-entropy loss stored its per-class weights as a plain attribute made with torch.Tensor(class_weight) in __init__, so moving the model to the GPU left them on the CPU; the hard-label branch copied them with .to(cls_score.device) but the soft-label branch multiplied the CUDA log-probabilities by the CPU weights and crashed; the fix moves the weights to the score's device in that branch too.
# split: test7
import torch
import torch.nn as nn
import torch.nn.functional as F


class WeightedCrossEntropy(nn.Module):
    def __init__(self, loss_weight=1.0, class_weight=None):
        super().__init__()
        self.loss_weight = loss_weight
        self.class_weight = None
        if class_weight is not None:
            self.class_weight = torch.Tensor(class_weight)  # bug: attribute_not_buffer

    def forward(self, cls_score, label):
        if cls_score.size() == label.size():
            # soft labels (e.g. mixup / cutmix)
            lsm = F.log_softmax(cls_score, 1)
            if self.class_weight is not None:
                lsm = lsm * self.class_weight.unsqueeze(0)
            loss = -(label * lsm).sum(1)
            if self.class_weight is not None:
                loss = loss.sum() / torch.sum(self.class_weight.unsqueeze(0) * label)
            else:
                loss = loss.mean()
        else:
            weight = None
            if self.class_weight is not None:
                weight = self.class_weight.to(cls_score.device)
            loss = F.cross_entropy(cls_score, label, weight=weight)
        return self.loss_weight * loss


class ClsHead(nn.Module):
    def __init__(self, in_channels, num_classes, class_weight=None):
        super().__init__()
        self.fc = nn.Linear(in_channels, num_classes)
        self.loss_cls = WeightedCrossEntropy(class_weight=class_weight)

    def forward(self, feats, soft_labels):
        return self.loss_cls(self.fc(feats), soft_labels)


if __name__ == "__main__":
    head = ClsHead(2048, 4, class_weight=[1.0, 2.0, 1.0, 0.5]).cuda()
    feats = torch.randn(8, 2048, device="cuda")
    soft = torch.softmax(torch.randn(8, 4, device="cuda"), dim=1)
    head(feats, soft).backward()
