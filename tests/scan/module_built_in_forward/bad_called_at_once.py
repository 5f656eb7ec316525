import torch
from torch import nn


def project(features, width):
    # A helper that builds a layer and calls it once: fresh random weights every time.
    return nn.Linear(features.size(-1), width)(features)  # expect: code.module_built_in_forward


class Head(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def decode(self, feats):
        x = nn.Conv2d(self.dim, self.dim, 1)(feats)  # expect: code.module_built_in_forward
        return torch.relu(x)

    def forward(self, x):
        return self.decode(x)
