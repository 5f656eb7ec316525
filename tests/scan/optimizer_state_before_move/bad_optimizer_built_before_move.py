# Optimizers built over a model's parameters before the model is moved: Adagrad makes its state in its
# constructor (on the CPU) and fails at the first step; AdamW makes it at the first step, which works,
# but PyTorch asks for the move first.
import torch
from torch import nn


def train_central(device, steps=10):
    net = nn.Linear(16, 4)
    params = [p for p in net.parameters() if p.requires_grad]
    central = torch.optim.Adagrad(params, lr=0.1)  # expect: code.optimizer_state_before_move=error
    net = net.to(device)
    for _ in range(steps):
        loss = net(torch.randn(8, 16, device=device)).pow(2).mean()
        loss.backward()
        central.step()


def finetune(device):
    unet = nn.Conv2d(4, 4, 3, padding=1)
    optimizer_cls = torch.optim.AdamW
    optimizer = optimizer_cls(unet.parameters(), lr=1e-5)  # expect: code.optimizer_state_before_move=info
    unet = unet.to(device)
    return unet, optimizer


def train_aliased(device):
    net = nn.Linear(16, 4)
    central_cls = torch.optim.Adagrad
    central = central_cls(net.parameters(), lr=0.1)  # expect: code.optimizer_state_before_move=error
    net = net.to(device)
    return net, central
