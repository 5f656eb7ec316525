# source: https://github.com/google-deepmind/tips/pull/17
# also: https://github.com/google-deepmind/tips/commit/8226e4a960fe4cdd1a3eb782555dda89a2538b8d
# kind: tensor_no_device_in_forward
# bug: the PyTorch text encoder's sinusoidal positional-embedding helper built its positions and timescales with `torch.arange`/`torch.tensor` and no device on every call, so the signal was always on the CPU while the token embeddings it was added to were on the GPU; the fix moves the helper's result to `x.device` where it is added.
# split: test12
import math

import torch
import torch.nn as nn


class SinusoidPositions(nn.Module):
    def __init__(self, dim, min_timescale=1.0, max_timescale=1.0e4):
        super().__init__()
        self.dim = dim
        self.min_timescale = min_timescale
        self.max_timescale = max_timescale

    def __call__(self, seq_length):
        position = torch.arange(seq_length, dtype=torch.float32)[None, :]  # bug: tensor_no_device_in_forward
        n = self.dim // 2
        step = math.log(self.max_timescale / self.min_timescale) / max(n - 1, 1)
        inv = self.min_timescale * torch.exp(torch.arange(n, dtype=torch.float32) * -step)
        scaled = position[:, :, None] * inv[None, None, :]
        return torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=2)


class CaptionEncoder(nn.Module):
    def __init__(self, vocab=32000, dim=256, layers=4, heads=4, scale_sqrt_depth=True):
        super().__init__()
        self.dim = dim
        self.scale_sqrt_depth = scale_sqrt_depth
        self.token_embedding = nn.Embedding(vocab, dim)
        self.pos_embedder = SinusoidPositions(dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, batch_first=True)
        self.transformer = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids, paddings):
        seq_length = ids.shape[1]
        x = self.token_embedding(ids)
        if self.scale_sqrt_depth:
            x = x * self.dim ** 0.5
        x = x + self.pos_embedder(seq_length)
        x = self.transformer(x, src_key_padding_mask=paddings.bool())
        keep = (paddings == 0).float().unsqueeze(-1)
        return self.norm((x * keep).sum(1) / keep.sum(1).clamp(min=1.0))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc = CaptionEncoder().to(device).eval()
    ids = torch.randint(0, 32000, (2, 64), device=device)
    pads = torch.zeros(2, 64, device=device)
    with torch.no_grad():
        print(enc(ids, pads).shape)
