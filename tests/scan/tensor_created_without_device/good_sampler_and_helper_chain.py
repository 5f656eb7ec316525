# Host tensors around a module that are fine: a helper that moves what it makes before it returns,
# layer-drop booleans drawn on the host for Python to branch on, a method that runs the module on a
# dummy input from __init__ (before the module moves), and a data transform's forward() helpers.
import torch
from torch import nn


def positions(x, n=8):
    pos = torch.arange(n, dtype=torch.float)
    return pos.to(x.device)


def dropout_layers(layers, p):
    to_drop = torch.zeros(len(layers)).uniform_(0.0, 1.0) < p
    return [layer for layer, drop in zip(layers, to_drop) if not drop]


def patchify(img, patch):
    grid = torch.arange(16)
    return img.unfold(-1, patch, patch), grid


class ResizeTransform(nn.Module):
    def forward(self, img):
        return patchify(img, 4)


class Net(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(4)])
        self.out_features = self.feature_size(dim)

    def feature_size(self, dim):
        return self.forward(torch.zeros(1, 3, dim)).shape[-1]

    def forward(self, x):
        x = x + positions(x)[None, None, :]
        for layer in dropout_layers(self.layers, 0.1):
            x = layer(x)
        return x


model = Net().cuda()
