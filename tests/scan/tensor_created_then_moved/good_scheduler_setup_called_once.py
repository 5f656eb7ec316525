import torch
from torch import nn


class NoiseScheduler:
    def __init__(self, steps):
        self.steps = steps
        self.sigmas = None

    def prepare(self, device):
        self.sigmas = torch.linspace(1.0, 0.0, self.steps).to(device)

    def step(self, eps, i, x, generator=None):
        fresh = torch.randn(x.shape, dtype=x.dtype, device=x.device, generator=generator)
        return x - self.sigmas[i] * eps + self.sigmas[i] * fresh


def sample(denoiser: nn.Module, steps=50):
    device = torch.device("cuda")
    denoiser = denoiser.to(device)
    sched = NoiseScheduler(steps)
    sched.prepare(device)
    x = torch.randn(1, 4, 32, 32, device=device)
    for i in range(steps):
        x = sched.step(denoiser(x), i, x)
    return x
