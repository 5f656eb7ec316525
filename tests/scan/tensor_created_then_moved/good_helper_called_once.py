# The same allocation in a function called only at set-up, or created on the device directly.
import torch
from torch import nn


def make_table(n, dim):
    return torch.zeros(n, dim).cuda()


def segment_sum(values, ids, n):
    out = torch.zeros(n, values.shape[1], device=values.device)
    return out.index_add(0, ids, values)


class Pool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.table = make_table(8, dim)

    def forward(self, x, ids):
        return segment_sum(self.proj(x), ids, 8)
