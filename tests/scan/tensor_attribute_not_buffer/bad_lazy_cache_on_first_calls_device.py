# A causal mask cached on the first call's device in a plain attribute: after the module is moved
# (trained on the GPU, then served on the CPU), the stale mask meets inputs on the other device.
import torch
from torch import nn


class CausalBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, 4, batch_first=True)
        self.mask = None  # expect: code.tensor_attribute_not_buffer
        self.cached_len = 0

    def forward(self, x):
        n = x.shape[1]
        if n != self.cached_len:
            self.mask = torch.triu(torch.ones(n, n, dtype=torch.bool, device=x.device), diagonal=1)
            self.cached_len = n
        out, _ = self.attn(x, x, x, attn_mask=self.mask)
        return out


block = CausalBlock(32).to("cuda")
