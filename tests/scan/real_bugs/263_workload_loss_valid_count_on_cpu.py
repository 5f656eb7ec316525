# source: https://github.com/mlcommons/algorithmic-efficiency/pull/336
# also: https://github.com/mlcommons/algorithmic-efficiency/commit/c38b063aeaa46a236d24a62306065731eece15a3
# kind: tensor_no_device_in_forward
# bug: the PyTorch workloads' `loss_fn` returned the number of valid examples as `torch.tensor(len(per_example_losses))` when no mask was given, a CPU tensor next to the CUDA summed loss, so submissions that all-reduced it across DDP ranks (NCCL, CUDA tensors only) or divided the CUDA loss by it failed (issue #328); the fix builds it with `device=DEVICE` (later `torch.as_tensor(..., device=DEVICE)`).
# split: test11
import os
from typing import Dict, Optional

import torch
import torch.distributed as dist
import torch.nn.functional as F

USE_DDP = "LOCAL_RANK" in os.environ
RANK = int(os.environ.get("LOCAL_RANK", 0))
DEVICE = torch.device(f"cuda:{RANK}" if torch.cuda.is_available() else "cpu")


class ImageWorkload:
    def __init__(self, model):
        self.model = model.to(DEVICE)

    def loss_fn(self, label_batch: torch.Tensor, logits_batch: torch.Tensor,
                mask_batch: Optional[torch.Tensor] = None,
                label_smoothing: float = 0.0) -> Dict[str, torch.Tensor]:
        per_example = F.cross_entropy(logits_batch, label_batch, reduction="none",
                                      label_smoothing=label_smoothing)
        if mask_batch is not None:
            per_example = per_example * mask_batch
            n_valid_examples = mask_batch.sum()
        else:
            n_valid_examples = torch.tensor(len(per_example))  # bug: tensor_no_device_in_forward
        return {"summed": per_example.sum(), "n_valid_examples": n_valid_examples,
                "per_example": per_example}


def update_params(workload, optimizer, batch, label_smoothing=0.1):
    workload.model.train()
    optimizer.zero_grad()
    logits = workload.model(batch["inputs"].to(DEVICE))
    out = workload.loss_fn(batch["targets"].to(DEVICE), logits, batch.get("weights"), label_smoothing)
    summed, n_valid = out["summed"], out["n_valid_examples"]
    if USE_DDP:
        summed = dist.nn.all_reduce(summed)
        dist.all_reduce(n_valid)
    loss = summed / n_valid
    loss.backward()
    optimizer.step()
    return loss.detach()
