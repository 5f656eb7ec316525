# Losses that hold tensors of their own (learned proxies, class weights made on the host) stay on
# the CPU unless they are moved with the model.
import torch
from torch import nn


class CenterLoss(nn.Module):
    def __init__(self, classes, dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(classes, dim))

    def forward(self, features, labels):
        return (features - self.centers[labels]).pow(2).sum(1).mean()


def train(loader, classes=10):
    device = torch.device("cuda")
    net = nn.Linear(32, 16).to(device)
    center = CenterLoss(classes, 16)  # expect: code.model_not_moved
    weighted = nn.CrossEntropyLoss(weight=torch.tensor([1.0] * classes))  # expect: code.model_not_moved
    head = nn.Linear(16, classes).to(device)
    opt = torch.optim.SGD(list(net.parameters()) + list(center.parameters()), lr=0.1)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        feats = net(x)
        loss = center(feats, y) + weighted(head(feats), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
