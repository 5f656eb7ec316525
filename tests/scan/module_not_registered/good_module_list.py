import torch
from torch import nn


class Tower(nn.Module):
    def __init__(self, depth, width):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.heads = nn.ModuleDict({"a": nn.Linear(width, 2)})
        self.scale = nn.Parameter(torch.ones(width))
        self.names = ["first", "second"]
        self.fcs = []
        for k in range(2):
            fc = nn.Linear(width, width)
            self.add_module(f"fc{k}", fc)
            self.fcs.append(fc)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x * self.scale
