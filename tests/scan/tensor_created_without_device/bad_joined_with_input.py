import math

import torch
import torch.nn.functional as F

device = torch.device("cuda")


def encode(coords, n_freq: int):
    j = torch.arange(n_freq)  # expect: code.tensor_created_without_device
    freqs = 2 * math.pi * j / n_freq
    return (freqs * coords.unsqueeze(-1)).sin()


def staged_loss(preds, targets):
    total = torch.Tensor([0])  # expect: code.tensor_created_without_device
    for p, t in zip(preds, targets):
        total = total + F.l1_loss(p, t)
    return total


def weighted(loss, use_weight):
    w = torch.tensor(0.5)  # 0-dim: mixes with tensors on any device
    return loss * w if use_weight else loss
