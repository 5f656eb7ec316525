# The same statistics as buffers: they move with the module.
import torch
from torch import nn


class ScaledHead(nn.Module):
    def __init__(self, mean=None, std=None):
        super().__init__()
        self.net = nn.Linear(8, 1)
        self.register_buffer("mean", torch.tensor(mean) if mean is not None else torch.zeros(1))
        self.register_buffer("std", torch.tensor(std) if std is not None else torch.ones(1))

    def forward(self, x):
        return self.net(x) * self.std + self.mean


head = ScaledHead(0.5, 2.0).to("cuda")
