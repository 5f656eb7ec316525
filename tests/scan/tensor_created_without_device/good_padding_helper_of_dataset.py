# The same helper used only to prepare samples, and one written to follow its input.
import torch
from torch import nn


def pad_sample(window, width):
    shape = list(window.shape)
    shape[1] = width
    return torch.cat((torch.full(shape, float("nan")), window), dim=1)


def pad_left(window, width):
    shape = list(window.shape)
    shape[1] = width
    return torch.cat((window.new_full(shape, float("nan")), window), dim=1)


class Samples(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __getitem__(self, i):
        return pad_sample(self.rows[i], 3)


class Encoder(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.net = nn.Linear(n, n)

    def forward(self, x):
        return self.net(torch.nan_to_num(pad_left(x, 3)))
