# A block class of this file built and called on the spot inside a method of the model: every call
# makes a fresh block with random weights, on the CPU once the model was moved, never trained.
import torch
from torch import nn


class Residual(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.conv = nn.Conv2d(width, width, 3, padding=1)
        self.norm = nn.BatchNorm2d(width)

    def forward(self, x):
        return x + torch.relu(self.norm(self.conv(x)))


class Tower(nn.Module):
    def __init__(self, width=16, depth=3):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.width = width
        self.depth = depth
        self.stages = nn.ModuleList(Residual(width) for _ in range(depth))

    def features(self, x):
        h = self.stem(x)
        for _ in range(self.depth):
            h = Residual(self.width)(h)  # expect: code.module_built_in_forward
        return h

    def forward(self, x):
        return self.features(x).mean(dim=(2, 3))


net = Tower().cuda()
