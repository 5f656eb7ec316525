import torch
from torch import nn
from torch.utils.data import Dataset

model = nn.Linear(8, 8).cuda()


def length_mask(lengths):
    positions = torch.arange(lengths.shape[0], device=lengths.device)
    return positions


def pad_scores(scores, total):
    return torch.cat([scores, scores.new_zeros(total - scores.size(0))])


def noise_like(x, use_cuda):
    if use_cuda:
        return torch.randn(x.shape).cuda()
    else:
        return torch.randn(x.shape)


def grid(h, w):
    # Sizes from plain numbers: nothing says where tensors live.
    return torch.zeros(h, w)


class Pairs(Dataset):
    def __init__(self, items):
        self.items = items

    def __getitem__(self, i):
        x = self.items[i]
        return torch.zeros(x.shape[0])  # items stay on the host until the loop moves them

    def __len__(self):
        return len(self.items)
