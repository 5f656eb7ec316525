# source: https://github.com/yhenon/pytorch-retinanet/issues/174
# also: https://github.com/yhenon/pytorch-retinanet/commit/39938d285fc3c602ae6a697ff690bbca29a502be
# kind: cpu_accumulator
# bug: for an image without annotations on CUDA the focal loss appended a CPU torch.tensor(0).float() to the list of per-image regression losses, which was later torch.stack'ed with CUDA losses; PR #220 appends a CUDA zero in that branch.
# split: test4
import torch
import torch.nn as nn


class DetectionFocalLoss(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, classifications, regressions, anchors, annotations):
        cls_losses, reg_losses = [], []
        for j in range(classifications.shape[0]):
            cls = classifications[j].clamp(1e-4, 1.0 - 1e-4)
            boxes = annotations[j][annotations[j][:, 4] != -1]
            if boxes.shape[0] == 0:
                if torch.cuda.is_available():
                    alpha = torch.ones(cls.shape, device=cls.device) * self.alpha
                    weight = (1.0 - alpha) * cls.pow(self.gamma)
                    cls_losses.append((weight * -torch.log(1.0 - cls)).sum())
                    reg_losses.append(torch.tensor(0).float())  # bug: cpu_accumulator
                continue
            target = torch.zeros_like(cls)
            target[:, boxes[0, 4].long()] = 1
            bce = -(target * torch.log(cls) + (1 - target) * torch.log(1 - cls))
            cls_losses.append(bce.sum() / max(boxes.shape[0], 1))
            reg_losses.append((regressions[j] - anchors[0]).abs().mean())
        return (torch.stack(cls_losses).mean(dim=0, keepdim=True),
                torch.stack(reg_losses).mean(dim=0, keepdim=True))
