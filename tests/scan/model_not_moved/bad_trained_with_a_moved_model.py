# Two modules trained by one optimizer: the trunk is moved to the configured device, the embedder
# (built by an alternative constructor) never is, and it is the one that reads the batch first.
import torch

from mylib.model import Embedder, Trunk


def train(cfg, loader, device):
    embedder = Embedder.from_config(cfg)  # expect: code.model_not_moved
    trunk = Trunk(cfg.width).to(device)
    params = list(embedder.parameters()) + list(trunk.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)
    for batch in loader:
        feats = embedder(batch["tokens"].to(device))
        loss = trunk(feats).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
