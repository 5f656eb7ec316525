# The empty-target zero made on the inputs' device, and a list of host values stacked on the host.
import torch
from torch import nn


class BoxLoss(nn.Module):
    def forward(self, preds, targets):
        losses, sizes = [], []
        for p, t in zip(preds, targets):
            sizes.append(torch.tensor(len(t)))
            if t.numel() == 0:
                losses.append(torch.tensor(0.0, device=p.device))
                continue
            losses.append((p[: len(t)] - t).abs().mean())
        print(torch.stack(sizes).sum())
        return torch.stack(losses).mean()


if __name__ == "__main__":
    crit = BoxLoss().to("cuda")
