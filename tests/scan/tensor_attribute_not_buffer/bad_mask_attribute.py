import torch
from torch import nn


class CausalAttention(nn.Module):
    def __init__(self, dim, max_len):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.mask = torch.triu(torch.ones(max_len, max_len), diagonal=1).bool()  # expect: code.tensor_attribute_not_buffer
        self.table = torch.tensor([0.5, 1.0, 2.0])  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        t = x.size(1)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = (q @ k.transpose(1, 2)).masked_fill(self.mask[:t, :t], float("-inf"))
        return torch.softmax(att, dim=-1) @ v * self.table[1]
