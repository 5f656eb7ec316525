# source: https://github.com/stanfordnlp/stanza/pull/1002
# also: https://github.com/stanfordnlp/stanza/commit/6e201c7c6a4f97dba7a864861bf4d1bdab7d03ed
# kind: to_result_discarded
# bug: the parser's sinusoidal position table is a buffer that is rebuilt when a longer sentence arrives; the rebuild helper took the old buffer's device but called `pe.to(device=device)` without keeping the result, so the regrown table came back on the CPU and indexing it from a CUDA model failed; the merged fix assigns `pe = pe.to(device=device)`.
# split: test15
import math

import torch
from torch import nn


class SinusoidTable(nn.Module):
    def __init__(self, dim, max_len):
        super().__init__()
        self.register_buffer("table", self.build(dim, max_len))

    @staticmethod
    def build(dim, max_len, device=None):
        pos = torch.arange(max_len).unsqueeze(1)
        freq = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
        table = torch.zeros(max_len, dim)
        table[:, 0::2] = torch.sin(pos * freq)
        table[:, 1::2] = torch.cos(pos * freq)
        if device is not None:
            table.to(device=device)  # bug: to_result_discarded
        return table

    def forward(self, positions):
        top = int(positions.max())
        if top >= self.table.shape[0]:
            self.register_buffer("table", self.build(self.table.shape[1], top + 1, device=self.table.device))
        return self.table[positions]


class PositionConcat(nn.Module):
    def __init__(self, d_model=256, max_len=128):
        super().__init__()
        self.table = SinusoidTable(d_model // 2, max_len)
        self.norm = nn.LayerNorm(d_model + d_model // 2)

    def forward(self, x):
        timing = self.table(torch.arange(x.shape[1], device=x.device)).unsqueeze(0).expand(x.shape[0], -1, -1)
        return self.norm(torch.cat([x, timing], dim=-1))


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    layer = PositionConcat().to(device)
    print(layer(torch.randn(2, 300, 256, device=device)).shape)
