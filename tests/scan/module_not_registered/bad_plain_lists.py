import torch
from torch import nn


class Tower(nn.Module):
    def __init__(self, depth, width, device):
        super().__init__()
        self.blocks = [nn.Linear(width, width) for _ in range(depth)]  # expect: code.module_not_registered
        self.heads = {"a": nn.Linear(width, 2)}  # expect: code.module_not_registered
        self.extra = []  # expect: code.module_not_registered
        for _ in range(2):
            self.extra.append(nn.Conv1d(width, width, 3))
        self.scale = nn.Parameter(torch.ones(width)).to(device)  # expect: code.module_not_registered

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x * self.scale
