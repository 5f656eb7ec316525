# source: https://github.com/XunhaoLai/native-sparse-attention-triton/pull/15
# also: https://github.com/XunhaoLai/native-sparse-attention-triton/commit/b1e4ef0c6305b605c179dcac8f723eb1a1c42c14
# kind: other
# bug: the rotary-embedding module took `device="cuda"` as its default and built its `inv_freq` buffer there, and the attention layers passed the same literal default down, so under DDP every rank allocated its RoPE buffer (and a CUDA context) on cuda:0 instead of its own GPU, leaking memory on GPU 0; the fix defaults to the current CUDA device instead of the bare "cuda" string.
# split: test13
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class RotaryEmbedding(nn.Module):
    def __init__(self, head_dim=128, theta=500000.0, device="cuda"):  # bug: other
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32, device=device) / head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        freqs = position_ids[:, :, None].float() * self.inv_freq[None, None, :]
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)


class SelfAttention(nn.Module):
    def __init__(self, hidden=1024, heads=8, head_dim=128, rope_device="cuda"):
        super().__init__()
        self.heads, self.head_dim = heads, head_dim
        self.qkv = nn.Linear(hidden, 3 * heads * head_dim, bias=False)
        self.out = nn.Linear(heads * head_dim, hidden, bias=False)
        self.rope = RotaryEmbedding(head_dim, device=rope_device)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, self.head_dim).unbind(2)
        pos = torch.arange(t, device=x.device)[None].expand(b, t)
        cos, sin = self.rope(x, pos)
        rot = lambda u: torch.cat((-u[..., self.head_dim // 2:], u[..., : self.head_dim // 2]), -1)
        q = q * cos[:, :, None] + rot(q) * sin[:, :, None]
        k = k * cos[:, :, None] + rot(k) * sin[:, :, None]
        o = nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.out(o.transpose(1, 2).reshape(b, t, -1))


def main():
    dist.init_process_group("nccl")
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    model = nn.Sequential(*[SelfAttention() for _ in range(4)]).to(local_rank)
    model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(100):
        x = torch.randn(2, 512, 1024, device=local_rank)
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
