# source: https://github.com/frgfm/holocron/pull/136
# also: https://github.com/frgfm/holocron/commit/e1fed602b1db08e7d91fcdda9c64051487e047d8
# kind: attribute_not_buffer
# bug: the base class of the library's loss modules turned a float or list `weight` argument into a class-weight tensor stored as a plain attribute, so `criterion.to(device)` / `.cuda()` left it on the CPU and the weighted focal / label-smoothing losses mixed it with CUDA logits; the merged fix registers the class weights with `register_buffer`.
# split: test14
from typing import List, Optional, Union

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


def focal_loss(x: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int, reduction: str, gamma: float) -> Tensor:
    logpt = F.log_softmax(x, dim=1)
    logpt = logpt.gather(1, target.clamp(min=0).unsqueeze(1)).squeeze(1)
    loss = -((1 - logpt.exp()) ** gamma) * logpt
    if weight is not None:
        loss = loss * weight.gather(0, target.clamp(min=0))
    valid = target != ignore_index
    loss = loss[valid]
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


class _WeightedLoss(nn.Module):
    def __init__(self, weight: Optional[Union[float, List[float], Tensor]] = None, ignore_index: int = -100,
                 reduction: str = "mean") -> None:
        super().__init__()
        if isinstance(weight, (float, int)):
            self.weight = torch.Tensor([weight, 1 - weight])  # bug: attribute_not_buffer
        elif isinstance(weight, list):
            self.weight = torch.Tensor(weight)
        else:
            self.weight = weight
        self.ignore_index = ignore_index
        if reduction not in ("none", "mean", "sum"):
            raise NotImplementedError("argument reduction received an incorrect input")
        self.reduction = reduction


class FocalLoss(_WeightedLoss):
    def __init__(self, gamma: float = 2.0, **kwargs) -> None:
        super().__init__(**kwargs)
        self.gamma = gamma

    def forward(self, x: Tensor, target: Tensor) -> Tensor:
        return focal_loss(x, target, self.weight, self.ignore_index, self.reduction, self.gamma)


if __name__ == "__main__":
    device = torch.device("cuda")
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 2)).to(device)
    criterion = FocalLoss(weight=0.25).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x = torch.randn(16, 3, 32, 32, device=device)
        y = torch.randint(0, 2, (16,), device=device)
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
