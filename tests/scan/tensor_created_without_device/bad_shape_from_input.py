import torch
from torch import nn

model = nn.Linear(8, 8).cuda()


def length_mask(lengths):
    steps = torch.arange(lengths.max().item())
    positions = torch.arange(lengths.shape[0])  # expect: code.tensor_created_without_device
    return steps, positions


def pad_scores(scores, total):
    return torch.cat([scores, torch.zeros(total - scores.size(0))])  # expect: code.tensor_created_without_device


def prepend_origin(counts):
    origin = torch.zeros(1)  # expect: code.tensor_created_without_device
    return torch.cat([origin, torch.cumsum(counts, 0)])
