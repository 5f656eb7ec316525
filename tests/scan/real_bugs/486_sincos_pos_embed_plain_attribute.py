# source: https://github.com/AshleyLab/OpenMHC/issues/10
# kind: attribute_not_buffer
# bug: the sensor ViT stored its fixed sin-cos positional embeddings as plain tensor attributes instead of buffers, so model.to(device) left them on the CPU and every forward copied several MB host-to-device with .to(x.device); the proposed fix registers them as non-persistent buffers.
# split: test23
import numpy as np
import torch
import torch.nn as nn


def sincos_1d(embed_dim, length):
    pos = np.arange(length, dtype=np.float64)
    omega = 1.0 / 10000 ** (np.arange(embed_dim // 2, dtype=np.float64) / (embed_dim / 2.0))
    out = np.einsum("m,d->md", pos, omega)
    emb = np.concatenate([np.sin(out), np.cos(out)], axis=1)
    return torch.from_numpy(emb).float().unsqueeze(0)


class PatchEmbed1D(nn.Module):
    def __init__(self, in_ch, patch, dim):
        super().__init__()
        self.proj = nn.Conv1d(in_ch, dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        return self.proj(x).transpose(1, 2)


class SensorViT1D(nn.Module):
    def __init__(self, in_ch=20, seq_len=1440, patch=10, embed_dim=384, depth=4, heads=6):
        super().__init__()
        self.patch_embed = PatchEmbed1D(in_ch, patch, embed_dim)
        self.num_patches = seq_len // patch
        self.pos_embed = sincos_1d(embed_dim, self.num_patches)  # bug: attribute_not_buffer
        layer = nn.TransformerEncoderLayer(embed_dim, heads, 4 * embed_dim, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x, mask=None):
        x = self.patch_embed(x)
        x = x + self.pos_embed.to(x.device, dtype=x.dtype)
        if mask is not None:
            x = x * (~mask).unsqueeze(-1).to(x.dtype)
        x = self.blocks(x)
        return self.norm(x)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SensorViT1D().to(device)
    for _ in range(3):
        batch = torch.randn(8, 20, 1440, device=device)
        out = model(batch)
    print(out.shape)
