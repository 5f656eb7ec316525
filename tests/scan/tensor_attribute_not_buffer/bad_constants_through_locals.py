# Normalisation constants turned into tensors in local names (under isinstance tests, so that a
# caller may pass numbers or lists) and then kept as plain attributes, one of them through a tuple
# assignment: model.to(device) leaves both on the CPU.
import torch
from torch import nn


class Standardise(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        if isinstance(mean, (list, tuple)):
            mean = torch.tensor(mean)[None, :, None, None]
        if isinstance(std, (list, tuple)):
            std = torch.tensor(std)[None, :, None, None]
        self.mean, self.std = mean, std  # expect: code.tensor_attribute_not_buffer

    def forward(self, images):
        return (images - self.mean) / self.std


class Rescale(nn.Module):
    def __init__(self, low, high):
        super().__init__()
        bounds = torch.tensor([low, high])
        self.bounds = bounds  # expect: code.tensor_attribute_not_buffer

    def forward(self, images):
        return (images - self.bounds[0]) / (self.bounds[1] - self.bounds[0])
