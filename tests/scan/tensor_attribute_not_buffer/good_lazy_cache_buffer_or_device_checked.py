# Caches that follow the module: a non-persistent buffer filled later, and a plain attribute rebuilt
# whenever the input's device differs.
import torch
from torch import nn


class CausalBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 4, batch_first=True)
        self.register_buffer("mask", None, persistent=False)
        self.cached_len = 0

    def forward(self, x):
        n = x.shape[1]
        if n != self.cached_len:
            self.mask = torch.triu(torch.ones(n, n, dtype=torch.bool, device=x.device), diagonal=1)
            self.cached_len = n
        out, _ = self.attn(x, x, x, attn_mask=self.mask)
        return out


class CheckedBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 4, batch_first=True)
        self.mask = None

    def forward(self, x):
        n = x.shape[1]
        if self.mask is None or self.mask.shape[0] != n or self.mask.device != x.device:
            self.mask = torch.triu(torch.ones(n, n, dtype=torch.bool, device=x.device), diagonal=1)
        out, _ = self.attn(x, x, x, attn_mask=self.mask)
        return out


block = CausalBlock(32).to("cuda")
