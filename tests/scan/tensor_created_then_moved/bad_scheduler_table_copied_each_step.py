# A noise scheduler keeps its table on the CPU and copies it to the samples' device into a local at
# every add_noise() call, which the training loop makes at each step.
import torch
import torch.nn.functional as F
from torch import nn


class NoiseScheduler:
    def __init__(self, steps=1000):
        self.steps = steps
        self.alphas_cumprod = torch.cumprod(1.0 - torch.linspace(1e-4, 0.02, steps), dim=0)

    def add_noise(self, x, noise, t):
        alphas = self.alphas_cumprod.to(device=x.device, dtype=x.dtype)  # expect: code.tensor_created_then_moved=warning
        a = alphas[t].sqrt().view(-1, 1)
        return a * x + (1 - a ** 2).sqrt() * noise


def train(model, loader, steps=10, device="cuda"):
    sched = NoiseScheduler()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        x = x.to(device)
        noise = torch.randn_like(x)
        t = torch.randint(0, sched.steps, (x.size(0),), device=device)
        loss = F.mse_loss(model(sched.add_noise(x, noise, t)), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()


train(nn.Linear(4, 4).cuda(), [torch.randn(2, 4)])
