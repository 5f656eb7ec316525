# A padding helper that forward() calls builds its padding on the host and joins it with the
# window it was given: in a file that names no GPU, the module still runs wherever it is moved.
import torch
from torch import nn


def pad_left(window, width):
    shape = list(window.shape)
    shape[1] = width
    return torch.cat((torch.full(shape, float("nan")), window), dim=1)  # expect: code.tensor_created_without_device


class Encoder(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.net = nn.Linear(n, n)

    def forward(self, x):
        return self.net(torch.nan_to_num(pad_left(x, 3)))
