# The same shapes written so that every branch gives a tensor where the inputs are, or a sum that
# starts as a CPU constant and grows from the inputs (a 0-dim CPU tensor mixes with CUDA ones).
import torch
from torch import nn


def dice_from_counts(overlap, total):
    if not (total > 0).any():
        return torch.tensor(0.0, device=total.device)
    return (2 * overlap / total.clamp(min=1)).mean()


def penalty_or_zero(z, penalty):
    if penalty is None:
        return z.new_tensor(0.0)
    return penalty


def summed(losses):
    total = torch.tensor(0.0)
    for loss in losses:
        total = total + loss
    return total


def ids_or_default(values):
    if not values:
        return torch.tensor([0])
    return torch.tensor(values)


class Dice(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("overlap", torch.zeros(0))
        self.register_buffer("total", torch.zeros(0))

    def compute(self):
        return dice_from_counts(self.overlap, self.total), summed([self.total.sum()]), ids_or_default([1])

    def penalty(self, z, p):
        if z.is_cuda:
            return penalty_or_zero(z, p)
        return torch.tensor(0.0)


model = Dice().cuda()
