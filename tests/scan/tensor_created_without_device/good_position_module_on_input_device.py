# The same module making its table on the device of the input it is given.
import math

import torch
from torch import nn


class SinusoidTable(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, like):
        position = torch.arange(like.shape[1], dtype=torch.float32, device=like.device)[:, None]
        rate = torch.exp(torch.arange(0, self.dim, 2, dtype=torch.float32, device=like.device) * (-math.log(10000.0) / self.dim))
        return torch.cat([torch.sin(position * rate), torch.cos(position * rate)], dim=-1)


class Encoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.positions = SinusoidTable(dim)

    def forward(self, ids):
        x = self.embed(ids)
        return x + self.positions(x)
