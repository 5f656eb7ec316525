import math

import torch
from torch import nn


class PhaseShift(nn.Module):
    def __init__(self, n_freq=201, hop=100):
        super().__init__()
        self.advance = torch.linspace(0, math.pi * hop, n_freq)[None, :]  # expect: code.tensor_attribute_not_buffer

    def forward(self, spec):
        return spec * torch.exp(1j * self.advance)


shift = PhaseShift().cuda()
