import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        h = nn.Linear(self.dim, self.dim)(x)  # expect: code.module_built_in_forward
        h = torch.relu(self.proj(h))
        return nn.LayerNorm(self.dim)(h + x)  # expect: code.module_built_in_forward
