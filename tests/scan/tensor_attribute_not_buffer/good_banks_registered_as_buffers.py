# The same banks registered as buffers: they move and save with the module.
import torch
from torch import nn


class MemoryModule(nn.Module):
    def __init__(self, slots=50, channels=128):
        super().__init__()
        self.register_buffer("keys", torch.randn(slots, channels))
        self.register_buffer("values", torch.zeros(slots, channels))
        self.proj = nn.Linear(channels, channels)

    def forward(self, q):
        attn = torch.softmax(self.proj(q) @ self.keys.t(), dim=-1)
        return attn @ self.values
