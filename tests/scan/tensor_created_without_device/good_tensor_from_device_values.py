# The statistics stay on the input's device.
import torch
from torch import nn


class RangeObserver(nn.Module):
    def forward(self, x):
        bounds = torch.stack([x.min(), x.max()])
        scale = (bounds[1] - bounds[0]) / 255
        return torch.round(x / scale) * scale


class Counted(nn.Module):
    def forward(self, x):
        sizes = torch.tensor([x.shape[0], x.shape[1]], device=x.device)
        return x * sizes.prod()


observer = RangeObserver().cuda()
counted = Counted().cuda()
