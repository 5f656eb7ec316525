import torch
from torch import nn


def build(config):
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model)
        model.cuda()  # expect: code.model_not_moved
    optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"])
    return model, optimizer


def train(model, optimizer, loader):
    for x, y in loader:
        if torch.cuda.is_available():
            x, y = x.cuda(), y.cuda()
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
