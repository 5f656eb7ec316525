import numpy as np
import torch


def train_gan(generator, loader, device, z_dim=128):
    fixed = torch.randn(64, z_dim).to(device)  # once, outside the loop: harmless
    for real, _ in loader:
        b = real.size(0)
        z = torch.randn(b, z_dim, device=device)
        ones = torch.ones_like(real[:, :1])
        half = torch.zeros(b).to(torch.float16)  # a dtype cast, not a copy to the device
        ids = torch.from_numpy(np.arange(b)).to(device)  # host data has to be copied anyway
        generator(z, ones, half, ids, fixed)
