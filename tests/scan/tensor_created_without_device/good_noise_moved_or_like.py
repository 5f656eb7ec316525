# Noise drawn with the input's device, with randn_like, or moved once made: nothing to report.
import torch
from torch import nn


class Noisy(nn.Module):
    def __init__(self, std):
        super().__init__()
        self.std = std

    def forward(self, x):
        a = x + torch.randn(x.shape, device=x.device) * self.std
        b = x + torch.randn_like(x) * self.std
        c = x + (torch.randn(x.shape) * self.std).to(x.device)
        return a + b + c
