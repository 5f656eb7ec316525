import torch
from torch import nn


def resume(path, device):
    net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    net.to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    ckpt = torch.load(path, map_location=device)
    net.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
    return net, optimizer


def resume_and_build_another(path, device):
    # The module moved later is not the one the optimizer was built on.
    model = nn.Linear(8, 2).to(device)
    head = nn.Linear(2, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt.load_state_dict(torch.load(path)["opt"])
    head.to(device)
    return model, head, opt
