# Module helpers whose tensors are not left on the host: moved before use, placeholders of size 0,
# numbers read back at once, weight initialisation, and helpers that forward() moves the result of
# (_sinusoid: a copy at every call, which code.tensor_created_then_moved reports).
import math

import torch
from torch import nn


class Positions(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.table = None

    def _extend(self, n, like):
        position = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        scale = torch.exp(torch.arange(0, self.dim, 2).float() * -(math.log(10000.0) / self.dim))
        table = torch.zeros(n, self.dim)
        table[:, 0::2] = torch.sin(position * scale)
        table[:, 1::2] = torch.cos(position * scale)
        self.table = table.to(device=like.device, dtype=like.dtype)

    def _sinusoid(self, n):
        half = self.dim // 2
        freqs = torch.exp(torch.arange(half, dtype=torch.float) * -(math.log(10000.0) / (half - 1)))
        return torch.cat([torch.sin(freqs), torch.cos(freqs)])

    def _init_weights(self):
        nn.init.normal_(torch.empty(3, 3))

    def forward(self, x):
        if self.table is None or self.table.size(0) < x.size(1):
            self._extend(x.size(1), x)
        extra = self._sinusoid(x.size(1)).to(x.device)
        return x + self.table[: x.size(1)] + extra


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def _window(self):
        return int(torch.randint(4, 65, (1,)).item())

    def _nothing(self):
        return torch.empty(0)

    def forward(self, x):
        w = self._window()
        if x.numel() == 0:
            return self._nothing()
        return self.proj(x[:, :w])


def lengths_mask(lengths):
    # the comparison happens on the host on purpose
    return torch.arange(int(lengths.max()))[None, :] < lengths.cpu()[:, None]


model = Positions(8).cuda()
