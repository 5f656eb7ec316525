import torch
from torch import nn


class NoiseScheduler:
    def __init__(self, sigmas):
        self.sigmas = sigmas

    def step(self, eps, i, x):
        sigma = self.sigmas[i]
        fresh = torch.randn(x.shape, dtype=x.dtype).to(x.device)  # expect: code.tensor_created_then_moved
        return x - sigma * eps + sigma * fresh


def sample(denoiser: nn.Module, steps=50):
    device = torch.device("cuda")
    denoiser = denoiser.to(device)
    sched = NoiseScheduler(torch.linspace(1.0, 0.0, steps, device=device))
    x = torch.randn(1, 4, 32, 32, device=device)
    for i in range(steps):
        x = sched.step(denoiser(x), i, x)
    return x
