# A module casts its input mask with a legacy tensor type, which also moves it to the CPU.
import torch
from torch import nn


class MaskedScore(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, 1)

    def forward(self, x, mask):
        mask = mask.type(torch.FloatTensor)  # expect: code.hardcoded_cpu
        return self.proj(x).squeeze(-1) * mask
