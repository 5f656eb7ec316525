# source: https://github.com/lightly-ai/lightly/issues/323
# also: https://github.com/lightly-ai/lightly/commit/c5adc04e5ec2d0ac300d6229d64cf5c78a3216fd
# kind: per_step_host_alloc
# bug: the momentum-encoder mixin shuffled every batch with `torch.randperm(batch_size).to(batch.device)`, drawing the permutation on the host and copying it to the GPU on each training step; the fix passes `device=batch.device` to randperm (and drops the redundant copy of the argsort).
# split: test18
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class MomentumMixin:
    m = 0.999

    def _init_momentum(self):
        self.key_backbone = copy.deepcopy(self.backbone)
        self.key_head = copy.deepcopy(self.head)
        for p in list(self.key_backbone.parameters()) + list(self.key_head.parameters()):
            p.requires_grad = False

    @torch.no_grad()
    def _momentum_update(self):
        for q, k in zip(self.backbone.parameters(), self.key_backbone.parameters()):
            k.data.mul_(self.m).add_(q.data, alpha=1 - self.m)
        for q, k in zip(self.head.parameters(), self.key_head.parameters()):
            k.data.mul_(self.m).add_(q.data, alpha=1 - self.m)

    @torch.no_grad()
    def _batch_shuffle(self, batch):
        n = batch.shape[0]
        perm = torch.randperm(n).to(batch.device)  # bug: per_step_host_alloc
        return batch[perm], perm

    @torch.no_grad()
    def _batch_unshuffle(self, batch, perm):
        return batch[torch.argsort(perm)]


class MoCoLike(nn.Module, MomentumMixin):
    def __init__(self, dim=128):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, dim)
        self._init_momentum()

    def forward(self, x_q, x_k):
        q = F.normalize(self.head(self.backbone(x_q)), dim=1)
        with torch.no_grad():
            self._momentum_update()
            x_k, perm = self._batch_shuffle(x_k)
            k = F.normalize(self.key_head(self.key_backbone(x_k)), dim=1)
            k = self._batch_unshuffle(k, perm)
        return q, k


def train(loader, device="cuda"):
    model = MoCoLike().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9)
    for v1, v2 in loader:
        q, k = model(v1.to(device), v2.to(device))
        logits = q @ k.t() / 0.2
        loss = F.cross_entropy(logits, torch.arange(q.shape[0], device=device))
        opt.zero_grad()
        loss.backward()
        opt.step()
