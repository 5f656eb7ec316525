# source: https://github.com/CompVis/attribute-control/pull/4
# also: https://github.com/CompVis/attribute-control/commit/7f9f2ae8665a6c1478c3da9e83cbebb0ba482d5a
# kind: hardcoded_cpu
# bug: the attribute-delta training loop saved an intermediate checkpoint with delta.cpu().state_dict(); Module.cpu() works in place, so after the first checkpoint the learned delta lived on the CPU while the diffusion model's embeddings stayed on CUDA and the next optimisation step failed; the fix saves delta.state_dict() without moving the module.
# split: test7
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F


class EmbeddingDelta(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.delta = nn.Parameter(torch.zeros(dim))

    def apply(self, emb, mask, scale):
        return emb + scale * mask[..., None] * self.delta


def learn_delta(model, loader, dim, device, max_steps=1000, ckpt_every=100):
    delta = EmbeddingDelta(dim).to(device)
    optimizer = torch.optim.AdamW(delta.parameters(), lr=1e-3)
    out_dir = Path("checkpoints")
    out_dir.mkdir(exist_ok=True)
    data = iter(loader)
    for step in range(max_steps):
        batch = next(data)
        emb, mask, target = (t.to(device) for t in batch)
        scale = torch.rand(emb.shape[0], 1, 1, device=device)
        pred = model.predict_eps(delta.apply(emb, mask, scale))
        loss = F.mse_loss(pred, target)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if (step + 1) % ckpt_every == 0:
            torch.save({"delta": delta.cpu().state_dict()}, out_dir / f"delta_{step + 1}.pt")  # bug: hardcoded_cpu
    torch.save({"delta": delta.state_dict()}, out_dir / "delta.pt")
    return delta
