# Two modules trained together, both moved (one after it is built).
import torch

from mylib.model import Embedder, Trunk


def train(cfg, loader, device):
    embedder = Embedder.from_config(cfg)
    embedder.to(device)
    trunk = Trunk(cfg.width).to(device)
    opt = torch.optim.Adam(list(embedder.parameters()) + list(trunk.parameters()), lr=1e-3)
    for batch in loader:
        loss = trunk(embedder(batch["tokens"].to(device))).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
