# A memory module that keeps its key and value banks as plain tensors put on "cuda" by hand.
import torch
from torch import nn


class MemoryModule(nn.Module):
    def __init__(self, slots=50, channels=128):
        super().__init__()
        self.keys = torch.randn(slots, channels).to("cuda")  # expect: code.tensor_attribute_not_buffer
        self.values = torch.zeros(slots, channels).cuda()  # expect: code.tensor_attribute_not_buffer
        self.proj = nn.Linear(channels, channels)

    def forward(self, q):
        attn = torch.softmax(self.proj(q) @ self.keys.t(), dim=-1)
        return attn @ self.values
