# source: https://github.com/facebookresearch/fairseq/pull/5213
# also: https://github.com/facebookresearch/fairseq/commit/31fba013a070eaff69dec8642e68e7134d60ab0f
# kind: attribute_not_buffer
# bug: the sinusoidal positional embedding kept its table in a plain `self.weights` attribute, so moving the module did not move it, and forward re-copied it onto the device of a dummy `_float_tensor` buffer on every call; the merged PR registers `weights` as a non-persistent buffer.
# split: test3
import math

import torch
import torch.nn as nn


def sinusoid_table(n, dim, padding_idx=None):
    half = dim // 2
    freq = torch.exp(torch.arange(half, dtype=torch.float) * -(math.log(10000) / (half - 1)))
    ang = torch.arange(n, dtype=torch.float).unsqueeze(1) * freq.unsqueeze(0)
    table = torch.cat([torch.sin(ang), torch.cos(ang)], dim=1)
    if padding_idx is not None:
        table[padding_idx] = 0
    return table


class SinusoidalPositions(nn.Module):
    def __init__(self, dim, padding_idx, init_size=1024):
        super().__init__()
        self.dim = dim
        self.padding_idx = padding_idx
        self.weights = sinusoid_table(init_size, dim, padding_idx)  # bug: attribute_not_buffer
        self.register_buffer("_probe", torch.FloatTensor(1))

    def forward(self, tokens):
        bsz, seq_len = tokens.shape
        max_pos = self.padding_idx + 1 + seq_len
        if max_pos > self.weights.size(0):
            self.weights = sinusoid_table(max_pos, self.dim, self.padding_idx)
        self.weights = self.weights.to(self._probe)
        mask = tokens.ne(self.padding_idx).int()
        positions = (torch.cumsum(mask, dim=1) * mask).long() + self.padding_idx
        return self.weights.index_select(0, positions.view(-1)).view(bsz, seq_len, -1).detach()
