# A function of the file that forward() calls at every step allocates its output on the host and
# copies it over.
import torch
from torch import nn


def segment_sum(values, ids, n):
    out = torch.zeros(n, values.shape[1]).cuda()  # expect: code.tensor_created_then_moved
    return out.index_add(0, ids, values)


def receive_buffer(part, world):
    shape = list(part.shape)
    shape[0] *= world
    return torch.empty(shape, dtype=part.dtype).to(part.device)  # expect: code.tensor_created_then_moved


class Pool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, ids):
        pooled = segment_sum(self.proj(x), ids, 8)
        return pooled, receive_buffer(pooled, 2)
