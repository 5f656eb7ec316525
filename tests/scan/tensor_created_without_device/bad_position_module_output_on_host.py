# A position-embedding module with no weights that builds its table from a length on every call:
# model.to(device) has nothing of it to move, so the table it returns stays on the CPU and meets the
# token embeddings on the GPU.
import math

import torch
from torch import nn


class SinusoidTable(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, length):
        position = torch.arange(length, dtype=torch.float32)[:, None]  # expect: code.tensor_created_without_device
        rate = torch.exp(torch.arange(0, self.dim, 2, dtype=torch.float32) * (-math.log(10000.0) / self.dim))  # expect: code.tensor_created_without_device
        return torch.cat([torch.sin(position * rate), torch.cos(position * rate)], dim=-1)


class Encoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.positions = SinusoidTable(dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, batch_first=True)

    def forward(self, ids):
        x = self.embed(ids)
        x = x + self.positions(ids.shape[1])
        return self.layer(x)
