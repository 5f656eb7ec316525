# The flip done on the device; a numpy routine torch lacks needs its host copy; grids made on the
# device.
import numpy as np
import torch
from torch import nn


class Bidirectional(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.rnn = nn.GRU(width, width, batch_first=True)

    def forward(self, seq):
        out, _ = self.rnn(seq)
        back, _ = self.rnn(torch.flip(seq, dims=[1]))
        order = torch.from_numpy(np.lexsort(seq[:, :, 0].cpu().numpy())).cuda()
        return (out + back)[order]


class Lookup:
    def __init__(self, radius=3):
        self.radius = radius

    def __call__(self, coords):
        r = self.radius
        dx = torch.linspace(-r, r, 2 * r + 1, device=coords.device)
        dy = torch.linspace(-r, r, 2 * r + 1, device=coords.device)
        grid = torch.stack(torch.meshgrid(dy, dx, indexing="ij"), dim=-1)
        return coords[:, None, None, :] + grid


model = Bidirectional().cuda()
