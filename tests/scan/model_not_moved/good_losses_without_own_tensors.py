import torch
from torch import nn


class FocalLoss(nn.Module):
    # Wraps another loss: no tensors of its own.
    def __init__(self, base, gamma=2.0):
        super().__init__()
        self.base = base
        self.gamma = gamma

    def forward(self, logits, target):
        ce = self.base(logits, target)
        return ((1 - torch.exp(-ce)) ** self.gamma * ce).mean()


def train(loader, classes=10):
    device = torch.device("cuda")
    net = nn.Linear(32, classes).to(device)
    plain = nn.CrossEntropyLoss()
    focal = FocalLoss(nn.CrossEntropyLoss(reduction="none"))
    weighted = nn.CrossEntropyLoss(weight=torch.ones(classes, device=device))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        out = net(x)
        loss = plain(out, y) + focal(out, y) + weighted(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
