# source: https://github.com/vllm-project/vllm/pull/43844
# also: https://github.com/vllm-project/vllm/pull/43844
# kind: hardcoded_cpu
# bug: the vision resampler built its 2-D sin-cos position cache with a `device="cpu"` default and kept it as a non-persistent buffer; the engine constructs the model directly on the GPU and only loads weights, so nothing ever moved that buffer, and `x + pos_embed` mixed CUDA and CPU tensors unless a large image forced a rebuild; the merged fix moves the sliced cache to the input's device in forward.
# split: test17
import numpy as np
import torch
import torch.nn as nn


def sincos_2d(dim, size):
    h, w = size
    grid = np.stack(np.meshgrid(np.arange(w), np.arange(h)), 0).reshape(2, -1).astype(np.float64)
    omega = 1.0 / 10000 ** (np.arange(dim // 4) / (dim / 4.0))
    out = [f(np.outer(g, omega)) for g in grid for f in (np.sin, np.cos)]
    return np.concatenate(out, 1).reshape(h, w, dim)


class Resampler(nn.Module):
    def __init__(self, num_queries=64, embed_dim=128, num_heads=4, max_size=(70, 70)):
        super().__init__()
        self.embed_dim = embed_dim
        self.max_size = list(max_size)
        self.query = nn.Parameter(torch.zeros(num_queries, embed_dim))
        self.attn = nn.MultiheadAttention(embed_dim, num_heads)
        self.ln_q = nn.LayerNorm(embed_dim)
        self.ln_kv = nn.LayerNorm(embed_dim)
        self._set_2d_pos_cache(self.max_size)

    def _set_2d_pos_cache(self, max_size, device="cpu"):  # bug: hardcoded_cpu
        pos_embed = torch.from_numpy(sincos_2d(self.embed_dim, max_size)).float()
        self.register_buffer("pos_embed", pos_embed.to(device), persistent=False)

    def forward(self, x, tgt_h, tgt_w):
        if tgt_h > self.max_size[0] or tgt_w > self.max_size[1]:
            self.max_size = [max(tgt_h, self.max_size[0]), max(tgt_w, self.max_size[1])]
            self._set_2d_pos_cache(self.max_size, device=x.device)
        pos_embed = self.pos_embed[:tgt_h, :tgt_w, :].reshape(tgt_h * tgt_w, 1, -1).to(x.dtype)
        kv = self.ln_kv(x).permute(1, 0, 2)
        q = self.ln_q(self.query).unsqueeze(1).repeat(1, x.shape[0], 1)
        out, _ = self.attn(q, kv + pos_embed, kv)
        return out.permute(1, 0, 2)


if __name__ == "__main__":
    with torch.device("cuda"):
        resampler = Resampler()
    patches = torch.randn(1, 32 * 32, 128, device="cuda")
    print(resampler(patches, 32, 32).shape)
