# The same constants registered as buffers, and a number that may be a 0-dim tensor: a 0-dim tensor
# mixes with tensors on any device, so keeping it as an attribute is harmless.
import torch
from torch import nn


class Standardise(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        if isinstance(mean, (list, tuple)):
            mean = torch.tensor(mean)[None, :, None, None]
        if isinstance(std, (list, tuple)):
            std = torch.tensor(std)[None, :, None, None]
        self.register_buffer("mean", mean, persistent=False)
        self.register_buffer("std", std, persistent=False)

    def forward(self, images):
        return (images - self.mean) / self.std


class Temperature(nn.Module):
    def __init__(self, value):
        super().__init__()
        value = torch.tensor(value)
        self.value = value

    def forward(self, logits):
        return logits / self.value
