# A CPU zero appended, for an empty target, to a list of per-sample losses computed on the inputs'
# device; torch.stack of that list mixes devices.
import torch
from torch import nn


class BoxLoss(nn.Module):
    def forward(self, preds, targets):
        losses = []
        for p, t in zip(preds, targets):
            if t.numel() == 0:
                losses.append(torch.tensor(0).float())  # expect: code.tensor_created_without_device
                continue
            losses.append((p[: len(t)] - t).abs().mean())
        return torch.stack(losses).mean()


if __name__ == "__main__":
    crit = BoxLoss().to("cuda")
