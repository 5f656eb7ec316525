# A function whose degenerate branch returns a constant made on the CPU while its other returns
# follow the inputs: on a GPU the branches give tensors on two devices, and the caller that stacks
# them fails.
import torch
from torch import nn


def dice_from_counts(overlap, total):
    if not (total > 0).any():
        return torch.tensor(0.0)  # expect: code.tensor_created_without_device
    return (2 * overlap / total.clamp(min=1)).mean()


class Dice(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("overlap", torch.zeros(0))
        self.register_buffer("total", torch.zeros(0))

    def compute(self):
        return dice_from_counts(self.overlap, self.total)


class Autoencoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.enc = nn.Linear(dim, 8)
        self.dec = nn.Linear(8, dim)
        self.penalties = []

    def split(self, recon, penalty):
        if penalty is None:
            extra = torch.tensor(0).float()  # expect: code.tensor_created_without_device
        else:
            extra = penalty
        return recon + extra, extra

    def forward(self, x, with_penalty=False):
        z = self.enc(x)
        recon = (self.dec(z) - x).pow(2).mean()
        total, extra = self.split(recon, z.pow(2).mean() if with_penalty else None)
        self.penalties.append(extra)
        return total


model = Autoencoder().cuda()


def grad_norm(parameters):
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return torch.tensor(0.0)  # expect: code.tensor_created_without_device=info
    return torch.norm(torch.stack([g.norm() for g in grads]))
