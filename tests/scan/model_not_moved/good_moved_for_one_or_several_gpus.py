import torch
from torch import nn


def build(config):
    model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model)
    model.cuda()  # one GPU or several
    return model, torch.optim.SGD(model.parameters(), lr=config["lr"])


def build_else(config):
    model = nn.Linear(8, 2)
    if torch.cuda.device_count() >= 2:
        model = nn.DataParallel(model).cuda()
    else:
        model = model.to("cuda" if torch.cuda.is_available() else "cpu")
    return model


def build_moved_first(config):
    model = nn.Linear(8, 2).cuda()
    if torch.cuda.device_count() > 1:
        model = nn.DataParallel(model)
        model.cuda()
    return model
