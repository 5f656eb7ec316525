"""A model definition module: builds and calls layers, trains nothing."""
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.mlp(self.norm(x))


def smoke_test():
    block = Block(16)
    out = block(torch.randn(2, 16))
    assert out.shape == (2, 16)
