import torch
from torch import nn

device = torch.device("cuda")


def fit_offsets(points, steps=100):
    offsets = torch.zeros(points.shape[1], device=points.device)
    offsets.requires_grad = True
    opt = torch.optim.Adam([offsets], lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        (points - offsets).pow(2).mean().backward()
        opt.step()
    return offsets.detach()


def init_scale(dim):
    scale = torch.ones(dim)
    scale.requires_grad_()
    return scale.to(device)


def make_weight(dim):
    w = torch.empty(dim, dim)
    w.requires_grad_(False)
    return nn.Parameter(w)  # a module's parameter: it moves with the module


class Affine(nn.Module):
    def __init__(self, dim):
        super().__init__()
        w = torch.eye(dim)
        w.requires_grad = True
        self.w = nn.Parameter(w)

    def forward(self, x):
        return x @ self.w


if __name__ == "__main__":
    print(fit_offsets(torch.rand(256, 3, device=device)))
