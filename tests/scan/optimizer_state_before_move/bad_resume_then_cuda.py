# Resuming: the optimizer's momentum is restored while the network is on the CPU, and .cuda()
# comes afterwards, so the restored state stays on the CPU.
import torch
from torch import nn


def resume(path, use_cuda):
    net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    ckpt = torch.load(path, map_location="cpu")
    net.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])  # expect: code.optimizer_state_before_move
    if use_cuda:
        net.cuda()
    return net, optimizer


def resume_adam(path, device):
    model = nn.Linear(8, 2)
    opt = torch.optim.Adam([{"params": p} for n, p in model.named_parameters()], lr=1e-3)
    state = torch.load(path)
    opt.load_state_dict(state["opt"])  # expect: code.optimizer_state_before_move
    model = model.to(device)
    return model, opt
