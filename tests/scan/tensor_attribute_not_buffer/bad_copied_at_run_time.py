# A table kept as a plain attribute and copied to the input's device in forward(): model.to() and
# .half() leave it behind, and every call checks or copies it again.
import math

import torch
from torch import nn


def sinusoids(n, dim):
    freqs = torch.exp(torch.arange(dim // 2, dtype=torch.float) * -math.log(10000.0))
    angles = torch.arange(n, dtype=torch.float)[:, None] * freqs[None, :]
    return torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)


class Positions(nn.Module):
    def __init__(self, dim, max_len=512):
        super().__init__()
        self.dim = dim
        self.table = sinusoids(max_len, dim)  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        if x.size(1) > self.table.size(0):
            self.table = sinusoids(x.size(1), self.dim)
        self.table = self.table.to(x.device)
        return x + self.table[: x.size(1)]


class Offsets(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.offsets = torch.arange(n).float()  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        return x + self.offsets.to(x.device)
