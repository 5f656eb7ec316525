import math

import torch
from torch import nn


class PhaseShift(nn.Module):
    def __init__(self, n_freq=201, hop=100):
        super().__init__()
        self.register_buffer("advance", torch.linspace(0, math.pi * hop, n_freq)[None, :])
        self.scale = torch.ones(n_freq)[0].item()  # a number, read at once

    def forward(self, spec):
        return spec * torch.exp(1j * self.advance) * self.scale


shift = PhaseShift().cuda()
