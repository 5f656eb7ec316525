# Stateless layers built in forward() are harmless (no weights, no train/eval mode); layers with
# weights are built once. (nn.Dropout is not among them: see bad_dropout_built_in_forward.py.)
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        h = nn.ReLU()(self.proj(x))
        h = nn.Softmax(dim=-1)(h)
        return self.norm(h + x)

    def make_head(self, classes):
        # Not forward(): built once by whoever calls it.
        return nn.Linear(self.proj.out_features, classes)
