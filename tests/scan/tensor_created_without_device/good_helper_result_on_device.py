# The same helpers written to follow their inputs, or moved at the call: nothing to report. A
# helper's host result used with host data only is fine too.
import torch
from torch import nn


def unit_grid(h: int, w: int, device=None) -> torch.Tensor:
    ys = torch.linspace(-1.0, 1.0, h, device=device).view(h, 1).expand(h, w)
    xs = torch.linspace(-1.0, 1.0, w, device=device).view(1, w).expand(h, w)
    return torch.stack([xs, ys], -1)


def ramp_channels(b, h, w):
    zeros = torch.zeros(b, 1, h, w)
    return torch.arange(h)[None, None, :, None] + zeros


class Warp(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(3, 2, 1)

    def forward(self, image):
        shift = self.head(image).permute(0, 2, 3, 1)
        centre = torch.ones(2, device=image.device)
        grid = unit_grid(image.shape[2], image.shape[3], device=image.device) * 0.5 + centre
        extra = ramp_channels(image.shape[0], image.shape[2], image.shape[3]).to(image.device)
        both = torch.cat([image, extra], 1)
        return grid + shift, both


def preview(h, w):
    base = ramp_channels(1, h, w)
    return torch.cat([base, base * 2], 1)


model = Warp().cuda()
