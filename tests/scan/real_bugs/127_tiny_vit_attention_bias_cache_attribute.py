# source: https://github.com/ChaoningZhang/MobileSAM/pull/47
# also: https://github.com/ChaoningZhang/MobileSAM/commit/48f418b6e3008617593f69d906c13558049406e8
# kind: attribute_not_buffer
# bug: the TinyViT attention cached its gathered relative-position bias table as a plain tensor attribute when switched to eval mode, so a model moved to CUDA afterwards still added a CPU bias to CUDA scores; the fix registers the cache as a non-persistent buffer.
# split: test4
import itertools

import torch
import torch.nn as nn


class WindowAttention(nn.Module):
    def __init__(self, dim, heads=4, key_dim=16, window=(7, 7)):
        super().__init__()
        self.heads = heads
        self.key_dim = key_dim
        self.scale = key_dim ** -0.5
        self.qkv = nn.Linear(dim, heads * key_dim * 3)
        self.out = nn.Linear(heads * key_dim, dim)
        cells = list(itertools.product(range(window[0]), range(window[1])))
        offsets, index = {}, []
        for a in cells:
            for b in cells:
                key = (abs(a[0] - b[0]), abs(a[1] - b[1]))
                offsets.setdefault(key, len(offsets))
                index.append(offsets[key])
        n = len(cells)
        self.bias_table = nn.Parameter(torch.zeros(heads, len(offsets)))
        self.register_buffer("bias_index", torch.LongTensor(index).view(n, n), persistent=False)

    @torch.no_grad()
    def train(self, mode=True):
        super().train(mode)
        if mode and hasattr(self, "cached_bias"):
            del self.cached_bias
        else:
            self.cached_bias = self.bias_table[:, self.bias_index]  # bug: attribute_not_buffer
        return self

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, self.heads, 3 * self.key_dim).permute(0, 2, 1, 3).chunk(3, dim=-1)
        bias = self.bias_table[:, self.bias_index] if self.training else self.cached_bias
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        y = attn.softmax(dim=-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, n, -1))


if __name__ == "__main__":
    block = WindowAttention(64).eval()
    block = block.cuda()
    print(block(torch.randn(2, 49, 64, device="cuda")).shape)
