# source: https://github.com/AdaptInfer/Contextualized/issues/254
# kind: tensor_no_device_in_forward
# bug: a graph-regression module built an identity with torch.eye(w.shape[-1]) and no device inside its forward computation, so it failed once the model was on a GPU; the maintainer named the device-less eye as the cause and closed the issue as resolved by PR #256.
# split: dev2
import torch
from torch import nn


class ContextGraph(nn.Module):
    def __init__(self, ctx_dim: int, n_feat: int):
        super().__init__()
        self.n = n_feat
        self.encoder = nn.Sequential(nn.Linear(ctx_dim, 64), nn.ReLU(), nn.Linear(64, n_feat * n_feat))

    def forward(self, ctx, x):
        w = self.encoder(ctx).view(-1, self.n, self.n)
        mask = 1 - torch.eye(w.shape[-1])  # bug: tensor_no_device_in_forward
        w = w * mask
        return torch.einsum("bij,bj->bi", w, x)


def fit(model, loader, device):
    model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for ctx, x in loader:
        ctx, x = ctx.to(device), x.to(device)
        loss = ((model(ctx, x) - x) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    fit(ContextGraph(5, 10), [], "cuda")
