# A method of the module builds its table on the host at every forward() call, and forward() copies
# the result over where it calls it: an allocation and a host-to-device copy per step. And a
# Transformer model's helper is judged like any model's (a "Transformer" is not a data transform).
import math

import torch
from torch import nn


class RelativePositions(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.proj = nn.Linear(dim, dim)

    def table(self, n):
        freqs = torch.arange(0, self.dim, 2, dtype=torch.float)  # expect: code.tensor_created_then_moved=warning
        inv = torch.exp(freqs * -(math.log(10000.0) / self.dim))
        steps = torch.arange(n, dtype=torch.float)  # expect: code.tensor_created_then_moved=warning
        angles = steps[:, None] * inv[None, :]
        return torch.cat([angles.sin(), angles.cos()], dim=-1)

    def forward(self, x):
        pos = self.table(x.size(1)).to(x.device)
        return self.proj(x + pos)


class TinyTransformer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.layer = nn.TransformerEncoderLayer(dim, 2, 2 * dim, batch_first=True)

    def causal_mask(self, n):
        return torch.ones(n, n).triu(1).bool()  # expect: code.tensor_created_then_moved=warning

    def forward(self, x):
        mask = self.causal_mask(x.size(1)).to(x.device)
        return self.layer(x, src_mask=mask)


model = RelativePositions(16).cuda()
other = TinyTransformer(16).cuda()
