# A dropout module built and called at once in forward(): it is always in training mode, so
# evaluation after model.eval() still drops activations at random.
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, p=0.1):
        super().__init__()
        self.p = p
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        w = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return nn.Dropout(self.p)(w) @ v  # expect: code.module_built_in_forward
