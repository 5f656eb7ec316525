# source: https://github.com/sipie800/ComfyUI-PuLID-Flux-Enhanced/issues/12
# kind: wrong_device_choice
# bug: the "train_weight" fusion path called its small online-training helper with a hard-coded device="cuda:1", so on machines with one GPU (or no CUDA, e.g. Macs) the embeddings were sent to a device that does not exist; the fix passes the device the conditioning tensor already lives on.
# split: test21
import random

import torch
import torch.nn as nn
import torch.optim as optim


class TokenMixer(nn.Module):
    def __init__(self, n=2, token_count=32):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n, token_count))

    def forward(self, x):
        return torch.einsum("bij,bi->ij", x, self.weight)


def sampled_token_loss(output, target, rate=0.25):
    d = torch.norm(target - output, dim=1)
    idx = random.sample(range(d.shape[0]), max(1, int(rate * d.shape[0])))
    return d[idx].mean()


def fit_fusion_weights(embeds, device="cuda:1", steps=200):
    home_device = embeds.device
    home_dtype = embeds.dtype
    embeds = embeds.clone().to(device, torch.float32)
    target = embeds[0]
    support = embeds[1:]
    n = support.shape[0]
    mixer = TokenMixer(n=n, token_count=support.shape[1])
    opt = optim.AdamW(mixer.parameters(), lr=1e-3, weight_decay=1e-4)
    mixer.to(device)
    for _ in range(steps):
        opt.zero_grad()
        loss = sampled_token_loss(mixer(support), target)
        loss.backward()
        opt.step()
    with torch.no_grad():
        fused = mixer.weight[:, :, None] * support + target[None] * (1.0 / n)
        fused = fused.mean(dim=0, keepdim=True)
    return fused.to(home_device, dtype=home_dtype)


class ApplyIdentityEmbedding:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def fuse(self, embeds, fusion="mean", train_step=200):
        cond = torch.cat(embeds).to(self.device)
        if fusion == "mean":
            return cond.mean(dim=0, keepdim=True)
        if fusion == "train_weight" and cond.shape[0] > 1:
            if train_step > 0:
                with torch.inference_mode(False):
                    cond = fit_fusion_weights(cond, device="cuda:1", steps=train_step)  # bug: wrong_device_choice
            else:
                cond = cond.mean(dim=0, keepdim=True)
        return cond


if __name__ == "__main__":
    node = ApplyIdentityEmbedding()
    faces = [torch.randn(1, 32, 64) for _ in range(3)]
    print(node.fuse(faces, fusion="train_weight", train_step=20).shape)
