# source: https://github.com/allenai/OLMo-core/pull/68
# also: https://github.com/allenai/OLMo-core/commit/5af60baadec70fea375106feed33c3f684e6e29d
# kind: per_step_host_alloc
# bug: the LLM trainer's `train_batch` started every optimizer step by creating its cross-entropy (and z-loss) accumulators with `torch.tensor(0.0, device=self.device)`, which copies a host scalar to the GPU synchronously and so stalled the host once per step (caught with `torch.cuda.set_sync_debug_mode`); the fix builds the scalar and moves it with a non-blocking copy.
# split: test14
from typing import Dict, List

import torch
import torch.nn as nn
import torch.nn.functional as F


def to_device(batch: Dict[str, torch.Tensor], device: torch.device) -> Dict[str, torch.Tensor]:
    return {k: v.to(device, non_blocking=device.type != "cpu") for k, v in batch.items()}


def split_batch(batch: Dict[str, torch.Tensor], micro: int) -> List[Dict[str, torch.Tensor]]:
    n = batch["input_ids"].shape[0]
    return [{k: v[i:i + micro] for k, v in batch.items()} for i in range(0, n, micro)]


class LMTrainer:
    def __init__(self, model: nn.Module, optim, device: torch.device, micro_batch_size=4, z_loss_multiplier=1e-4):
        self.device = device
        self.model = model.to(device)
        self.optim = optim
        self.micro_batch_size = micro_batch_size
        self.z_loss_multiplier = z_loss_multiplier
        self.metrics = {}

    def _microbatch_loss(self, mb, num_tokens):
        logits = self.model(mb["input_ids"])
        ce = F.cross_entropy(logits.flatten(0, 1), mb["labels"].flatten(), ignore_index=-100, reduction="sum")
        ce = ce / num_tokens
        z = self.z_loss_multiplier * logits.logsumexp(-1).pow(2).mean()
        return ce + z, ce, z

    def train_batch(self, batch: Dict[str, torch.Tensor]):
        self.optim.zero_grad(set_to_none=True)
        batch = to_device(batch, self.device)
        num_tokens = (batch["labels"] != -100).sum()
        micro_batches = split_batch(batch, self.micro_batch_size)

        ce_batch_loss = torch.tensor(0.0, device=self.device)  # bug: per_step_host_alloc
        z_batch_loss = torch.tensor(0.0, device=self.device)

        for mb in micro_batches:
            loss, ce, z = self._microbatch_loss(mb, num_tokens)
            ce_batch_loss += ce.detach()
            z_batch_loss += z.detach()
            loss.backward()

        self.metrics["train/CE loss"] = ce_batch_loss
        self.metrics["train/Z loss"] = z_batch_loss
        self.optim.step()

    def fit(self, loader, steps):
        for step, batch in zip(range(steps), loader):
            self.train_batch(batch)
