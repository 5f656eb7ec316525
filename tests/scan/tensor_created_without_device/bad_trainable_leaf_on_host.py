# Tensors optimised directly (no module) are made without device= while the data is on the GPU.
import torch

device = torch.device("cuda")


def fit_offsets(points, steps=100):
    offsets = torch.zeros(points.shape[1])  # expect: code.tensor_created_without_device
    offsets.requires_grad = True
    opt = torch.optim.Adam([offsets], lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss = (points - offsets).pow(2).mean()
        loss.backward()
        opt.step()
    return offsets.detach()


def init_scale(dim):
    scale = torch.cat((torch.ones(dim), torch.full((1,), 0.5)))  # expect: code.tensor_created_without_device
    return scale.requires_grad_()


if __name__ == "__main__":
    print(fit_offsets(torch.rand(256, 3, device=device)))
