# The model moved first, then the optimizer built over its parameters; a scheduler built afterwards.
import torch
from torch import nn


def train_central(device, steps=10):
    net = nn.Linear(16, 4).to(device)
    central = torch.optim.Adagrad(net.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(central, step_size=5)
    for _ in range(steps):
        loss = net(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        central.step()
        scheduler.step()
