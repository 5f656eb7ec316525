# A table built on the host by a helper of the file (with arithmetic on plain numbers) kept as a
# plain attribute and copied to the input's device at every call.
import math

import torch
from torch import nn


def angle_table(n, dim):
    half = dim // 2
    freq = torch.exp(torch.arange(half, dtype=torch.float) * -(math.log(10000.0) / (half - 1)))
    ang = torch.arange(n, dtype=torch.float).unsqueeze(1) * freq.unsqueeze(0)
    return torch.cat([torch.sin(ang), torch.cos(ang)], dim=1)


class Positions(nn.Module):
    def __init__(self, dim, size=512):
        super().__init__()
        self.table = angle_table(size, dim)  # expect: code.tensor_attribute_not_buffer

    def forward(self, ids):
        self.table = self.table.to(ids.device)
        return self.table[ids]
