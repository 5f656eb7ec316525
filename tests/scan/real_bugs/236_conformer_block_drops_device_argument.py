# source: https://github.com/sooftware/conformer/issues/27
# also: https://github.com/sooftware/conformer/pull/28
# also: https://github.com/sooftware/conformer/commit/e6513f95dba4c003e29bd2493eba4888e1996680
# kind: other
# bug: each Conformer submodule took a `device` argument defaulting to 'cuda' and moved its inputs (and, in the attention module, the relative positional embedding) to self.device in forward; ConformerBlock received the user's device but passed it only to the first feed-forward module, so the attention and convolution modules kept the 'cuda' default and a model built for (and moved to) the CPU still sent tensors to CUDA, failing on machines without a GPU (issue #27); the fix (PR #28) passes device to every submodule.
# split: test10
import math
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=10000):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(0, max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, length):
        return self.pe[:, :length]


class FeedForwardModule(nn.Module):
    def __init__(self, dim, expansion=4, dropout_p=0.1, device="cuda"):
        super().__init__()
        self.device = device
        self.net = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * expansion), nn.SiLU(),
                                 nn.Dropout(dropout_p), nn.Linear(dim * expansion, dim), nn.Dropout(dropout_p))

    def forward(self, x):
        return self.net(x.to(self.device))


class SelfAttentionModule(nn.Module):
    def __init__(self, dim, heads, dropout_p=0.1, device="cuda"):
        super().__init__()
        self.positional_encoding = PositionalEncoding(dim)
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout_p, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)
        self.device = device

    def forward(self, x: Tensor, mask: Optional[Tensor] = None):
        pos = self.positional_encoding(x.size(1)).to(self.device)
        h = self.norm(x) + pos
        out, _ = self.attn(h, h, h, key_padding_mask=mask)
        return self.dropout(out)


class ConvModule(nn.Module):
    def __init__(self, dim, kernel_size=31, dropout_p=0.1, device="cuda"):
        super().__init__()
        self.device = device
        self.norm = nn.LayerNorm(dim)
        self.pw1 = nn.Conv1d(dim, 2 * dim, 1)
        self.dw = nn.Conv1d(dim, dim, kernel_size, padding=(kernel_size - 1) // 2, groups=dim)
        self.bn = nn.BatchNorm1d(dim)
        self.pw2 = nn.Conv1d(dim, dim, 1)
        self.dropout = nn.Dropout(dropout_p)

    def forward(self, x):
        h = self.norm(x.to(self.device)).transpose(1, 2)
        h = nn.functional.glu(self.pw1(h), dim=1)
        h = self.pw2(nn.functional.silu(self.bn(self.dw(h))))
        return self.dropout(h).transpose(1, 2)


class Residual(nn.Module):
    def __init__(self, module, factor=1.0):
        super().__init__()
        self.module = module
        self.factor = factor

    def forward(self, x):
        return x + self.factor * self.module(x)


class ConformerBlock(nn.Module):
    def __init__(self, dim=144, heads=4, kernel_size=31, dropout_p=0.1, device="cuda"):
        super().__init__()
        self.device = device
        self.sequential = nn.Sequential(
            Residual(FeedForwardModule(dim, dropout_p=dropout_p, device=device), 0.5),
            Residual(SelfAttentionModule(dim, heads, dropout_p=dropout_p)),  # bug: other
            Residual(ConvModule(dim, kernel_size, dropout_p=dropout_p)),
            Residual(FeedForwardModule(dim, dropout_p=dropout_p), 0.5),
            nn.LayerNorm(dim),
        )

    def forward(self, x):
        return self.sequential(x.to(self.device))


if __name__ == "__main__":
    device = torch.device("cpu")
    block = ConformerBlock(device=device).to(device)
    print(block(torch.randn(2, 50, 144)).shape)
