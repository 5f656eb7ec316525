# A frequency table made on the host in one statement and copied to the input's device in the next, at
# every forward; and a state buffer moved under a flag.
import math

import torch
from torch import nn


def timestep_embedding(timesteps, dim):
    half = dim // 2
    freqs = torch.exp(torch.arange(half, dtype=torch.float32) * -(math.log(10000) / (half - 1)))  # expect: code.tensor_created_then_moved
    freqs = freqs.to(device=timesteps.device)
    args = timesteps.float()[:, None] * freqs[None, :]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=1)


class Denoiser(nn.Module):
    def __init__(self, dim, use_cuda=True):
        super().__init__()
        self.dim = dim
        self.use_cuda = use_cuda
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, t):
        state = torch.zeros(x.shape[0], self.dim)  # expect: code.tensor_created_then_moved
        if self.use_cuda:
            state = state.cuda()
        return self.proj(x + timestep_embedding(t, self.dim) + state)
