# source: https://github.com/torchgeo/torchgeo/pull/3232
# kind: attribute_not_buffer
# bug: the CROMA remote-sensing encoder stored its precomputed 2D ALiBi attention bias as a plain tensor attribute, so model.to("cuda") left it on the CPU and the attention layers failed with a device mismatch during training and inference; the fix registers attn_bias as a buffer so it moves with the module.
# split: test6
import itertools
import math

import torch
import torch.nn as nn


def alibi_2d(num_heads, num_patches):
    side = int(math.sqrt(num_patches))
    points = list(itertools.product(range(side), range(side)))
    start = 2 ** (-(2 ** -(math.log2(num_heads) - 3)))
    slopes = torch.Tensor([start * start ** i for i in range(num_heads)]).unsqueeze(1)
    cols = []
    for p in points:
        for q in points:
            cols.append(-math.dist(p, q) * slopes)
    return torch.cat(cols, dim=1).view(1, num_heads, num_patches, num_patches)


class BiasedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, bias):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads) + bias
        y = att.softmax(-1) @ v
        return self.out(y.transpose(1, 2).reshape(b, n, d))


class RadarOpticalEncoder(nn.Module):
    def __init__(self, dim=256, heads=8, image_size=120, patch=8, in_ch=12):
        super().__init__()
        self.num_patches = (image_size // patch) ** 2
        self.attn_bias = alibi_2d(heads, self.num_patches)  # bug: attribute_not_buffer
        self.embed = nn.Conv2d(in_ch, dim, patch, stride=patch)
        self.blocks = nn.ModuleList(BiasedAttention(dim, heads) for _ in range(4))

    def forward(self, imgs):
        x = self.embed(imgs).flatten(2).transpose(1, 2)
        for blk in self.blocks:
            x = x + blk(x, self.attn_bias)
        return x.mean(dim=1)
