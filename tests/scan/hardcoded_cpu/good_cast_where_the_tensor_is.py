# The same module casting in place; a CUDA type; and a data script outside any module.
import torch
from torch import nn


class MaskedScore(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, 1)

    def forward(self, x, mask):
        mask = mask.float()
        other = mask.type(torch.cuda.FloatTensor) if mask.is_cuda else mask
        return self.proj(x).squeeze(-1) * other


data = torch.randint(0, 255, (10, 4)).type(torch.FloatTensor) / 255.0
