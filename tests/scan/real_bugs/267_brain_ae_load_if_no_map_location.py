# source: https://github.com/LemuelPuglisi/BrLP/pull/3
# also: https://github.com/LemuelPuglisi/BrLP/commit/38a8791e1bbe55d4b63e68b6912038e4732dc60a
# kind: loaded_weights_not_moved
# bug: every network builder went through a shared `load_if(checkpoint, network)` helper that restored weights with a bare `torch.load(path)`, so GPU-trained checkpoints were deserialised onto the GPU they were saved from, whatever device the freshly built network and the calling script used (crashing on CPU-only machines); the fix maps the checkpoint onto `next(network.parameters()).device`.
# split: test12
import os
from typing import Optional

import torch
import torch.nn as nn


def load_if(checkpoints_path: Optional[str], network: nn.Module) -> nn.Module:
    if checkpoints_path is not None:
        assert os.path.exists(checkpoints_path), "Invalid path"
        network.load_state_dict(torch.load(checkpoints_path))  # bug: loaded_weights_not_moved
    return network


class VolumeAutoencoder(nn.Module):
    def __init__(self, channels=(32, 64, 64), latent=3):
        super().__init__()
        layers, c_in = [], 1
        for c in channels:
            layers += [nn.Conv3d(c_in, c, 3, stride=2, padding=1), nn.SiLU()]
            c_in = c
        self.encoder = nn.Sequential(*layers, nn.Conv3d(c_in, latent, 1))
        self.decoder = nn.Sequential(
            nn.Upsample(scale_factor=8), nn.Conv3d(latent, 64, 3, padding=1), nn.SiLU(), nn.Conv3d(64, 1, 3, padding=1)
        )

    def encode(self, x):
        return self.encoder(x)

    def forward(self, x):
        return self.decoder(self.encode(x))


def init_autoencoder(checkpoints_path: Optional[str] = None) -> nn.Module:
    return load_if(checkpoints_path, VolumeAutoencoder())


def extract_latents(ckpt, volumes, device):
    autoencoder = init_autoencoder(ckpt).to(device).eval()
    latents = []
    with torch.no_grad():
        for vol in volumes:
            latents.append(autoencoder.encode(vol.to(device)[None, None]).cpu())
    return latents


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    print(len(extract_latents("autoencoder-ep-5.pth", [torch.randn(64, 64, 64)], dev)))
