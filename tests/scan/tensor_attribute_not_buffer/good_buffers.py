import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, dim, max_len):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.register_buffer("mask", torch.triu(torch.ones(max_len, max_len), diagonal=1).bool(), persistent=False)
        self.temperature = torch.tensor(0.5)  # 0-dim: mixes with tensors on any device
        table = torch.zeros(max_len, dim)
        self.table = table.to("cuda") if torch.cuda.is_available() else table  # placed where it is made
        self.scale = torch.ones(dim, device="cuda")

    def forward(self, x):
        t = x.size(1)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = (q @ k.transpose(1, 2)).masked_fill(self.mask[:t, :t], float("-inf"))
        out = torch.softmax(att / self.temperature, dim=-1) @ v
        return out + self.table[:t]
