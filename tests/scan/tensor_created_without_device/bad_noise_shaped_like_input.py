# A module in a library that never names a GPU: noise drawn in forward() with an input's shape but
# no device, then added to that input. Whoever moves the module to a GPU gets "Expected all
# tensors to be on the same device" on that line.
import torch
from torch import nn


class SlotInit(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mu = nn.Parameter(torch.randn(1, 1, dim))
        self.log_sigma = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x, n_slots):
        mu = self.mu.expand(x.shape[0], n_slots, -1)
        sigma = self.log_sigma.exp().expand(x.shape[0], n_slots, -1)
        return mu + sigma * torch.randn(mu.shape)  # expect: code.tensor_created_without_device


class Jitter(nn.Module):
    def __init__(self, std):
        super().__init__()
        self.std = std

    def perturb(self, obs):
        return torch.rand(size=obs.shape) * self.std + obs  # expect: code.tensor_created_without_device

    def forward(self, obs):
        return self.perturb(obs) if self.training else obs
