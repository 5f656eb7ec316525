# source: https://github.com/AminRezaei0x443/memory-efficient-attention/pull/5
# also: https://github.com/AminRezaei0x443/memory-efficient-attention/commit/8de8825a7d85522559d377d3b0a7c5c4ec282524
# kind: tensor_no_device_in_forward
# bug: the dynamic-slice helper used by the chunked (memory-efficient) attention built its index with torch.tensor(range(...)) on the CPU and passed it to torch.index_select on CUDA keys/values, which fails on the GPU; the fix creates the index on x.device.
# split: test19
import math

import torch
import torch.nn as nn


def dynamic_slice(x, starts, sizes):
    for dim, (start, size) in enumerate(zip(starts, sizes)):
        start = max(0, min(start, x.shape[dim] - size))
        idx = torch.tensor(range(start, start + size))  # bug: tensor_no_device_in_forward
        x = torch.index_select(x, dim, idx)
    return x


def chunked_attention(q, k, v, chunk=64):
    b, n, h, d = k.shape
    q = q / math.sqrt(d)
    outs, sums, maxes = [], [], []
    for c in range(0, n, chunk):
        size = min(chunk, n - c)
        kc = dynamic_slice(k, (0, c, 0, 0), (b, size, h, d))
        vc = dynamic_slice(v, (0, c, 0, 0), (b, size, h, d))
        w = torch.einsum("bqhd,bkhd->bqhk", q, kc)
        m = w.amax(-1, keepdim=True).detach()
        e = torch.exp(w - m)
        outs.append(torch.einsum("bkhd,bqhk->bqhd", vc, e))
        sums.append(e.sum(-1))
        maxes.append(m.squeeze(-1))
    mx = torch.stack(maxes)
    scale = torch.exp(mx - mx.amax(0, keepdim=True))
    out = (torch.stack(outs) * scale.unsqueeze(-1)).sum(0)
    return out / (torch.stack(sums) * scale).sum(0).unsqueeze(-1)


class LongContextAttention(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, -1).unbind(2)
        return self.proj(chunked_attention(q, k, v).reshape(b, n, -1))


if __name__ == "__main__":
    layer = LongContextAttention().cuda()
    print(layer(torch.randn(2, 300, 64, device="cuda")).shape)
