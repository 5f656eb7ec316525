# source: https://github.com/jmclong/random-fourier-features-pytorch/pull/4
# also: https://github.com/jmclong/random-fourier-features-pytorch/commit/26869df6fb295f37e79940eba8a9c3fb76b69f81
# kind: tensor_no_device_in_forward
# bug: the positional-encoding function built its frequency index with torch.arange(m) on the CPU and multiplied it with the (CUDA) input; the fix passed device=v.device.
# split: dev2
import math

import torch
from torch import nn


def sinus_encode(coords: torch.Tensor, scale: float, n_freq: int) -> torch.Tensor:
    j = torch.arange(n_freq)  # bug: tensor_no_device_in_forward
    freqs = 2 * math.pi * scale ** (j / n_freq)
    ang = freqs * coords.unsqueeze(-1)
    return torch.cat((ang.cos(), ang.sin()), dim=-1).flatten(-2, -1)


class CoordMLP(nn.Module):
    def __init__(self, in_dim=2, n_freq=16, scale=10.0):
        super().__init__()
        self.n_freq, self.scale = n_freq, scale
        self.mlp = nn.Sequential(nn.Linear(in_dim * 2 * n_freq, 256), nn.ReLU(), nn.Linear(256, 3))

    def forward(self, xy):
        return self.mlp(sinus_encode(xy, self.scale, self.n_freq))


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    net = CoordMLP().to(dev)
    print(net(torch.rand(1024, 2, device=dev)).shape)
