# source: https://github.com/Lightning-AI/torchmetrics/pull/2636
# kind: wrong_device_choice
# bug: under deterministic mode the cumulative-sum helper ran the cumsum on the CPU and then sent the result back with a bare .cuda(), which lands on the default GPU (cuda:0) even when the metric's inputs live on cuda:1, breaking later ops; the fix remembers the input's device and moves the result back with .to(device).
# split: test23
import warnings
from typing import Optional

import torch
from torch import Tensor


def _cumsum(x: Tensor, dim: Optional[int] = 0, dtype: Optional[torch.dtype] = None) -> Tensor:
    if torch.are_deterministic_algorithms_enabled() and x.is_cuda and x.is_floating_point():
        warnings.warn(
            "cumsum on CUDA is not deterministic; falling back to CPU. Expect some slowdowns."
        )
        return x.cpu().cumsum(dim=dim, dtype=dtype).cuda()  # bug: wrong_device_choice
    return torch.cumsum(x, dim=dim, dtype=dtype)


def binary_clf_curve(preds: Tensor, target: Tensor, pos_label: int = 1):
    with torch.no_grad():
        desc = torch.argsort(preds, descending=True)
        preds = preds[desc]
        target = target[desc]
        distinct = torch.where(preds[1:] - preds[:-1])[0]
        threshold_idxs = torch.nn.functional.pad(distinct, [0, 1], value=target.size(0) - 1)
        target = (target == pos_label).to(torch.float32)
        tps = _cumsum(target, dim=0)[threshold_idxs]
        fps = 1 + threshold_idxs - tps
        return fps, tps, preds[threshold_idxs]


def average_precision(preds: Tensor, target: Tensor) -> Tensor:
    fps, tps, _ = binary_clf_curve(preds, target)
    precision = tps / (tps + fps)
    recall = tps / tps[-1]
    precision = torch.cat([precision.flip(0), torch.ones(1, device=precision.device)])
    recall = torch.cat([recall.flip(0), torch.zeros(1, device=recall.device)])
    return -torch.sum((recall[1:] - recall[:-1]) * precision[:-1])


if __name__ == "__main__":
    torch.use_deterministic_algorithms(True)
    dev = torch.device("cuda:1" if torch.cuda.device_count() > 1 else "cpu")
    p = torch.rand(100, device=dev)
    t = torch.randint(0, 2, (100,), device=dev)
    print(average_precision(p, t))
