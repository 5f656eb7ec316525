# source: https://github.com/graphnet-team/graphnet/issues/328
# also: https://github.com/graphnet-team/graphnet/commit/f40ae535603cd41c0d38299b12e0cf91c3d3ee91
# kind: tensor_no_device_in_forward
# bug: the multi-class loss mapped the particle ids to class indices with a Python list, rebuilt them with torch.tensor(...) and one_hot on the CPU inside its forward, and fed that to cross_entropy with the CUDA predictions; the fix moves the one-hot target to the compute device.
# split: test18
import numpy as np
import torch
import torch.nn as nn
from torch.nn.functional import cross_entropy, one_hot


class BaseLoss(nn.Module):
    def forward(self, prediction, target, weights=None):
        elements = self._forward(prediction, target)
        if weights is not None:
            elements = elements * weights
        return elements.mean()

    def _forward(self, prediction, target):
        raise NotImplementedError


class FlavourCrossEntropy(BaseLoss):
    """Noise / muon / neutrino three-way classification."""

    CLASS_OF_PID = {1: 0, 12: 2, 13: 1, 14: 2, 16: 2}

    def _forward(self, prediction, target):
        idx = torch.tensor([self.CLASS_OF_PID[abs(int(v))] for v in target])
        target_oh = one_hot(idx, 3)  # bug: tensor_no_device_in_forward
        return cross_entropy(prediction.float(), target_oh.float(), reduction="none")


class PulseClassifier(nn.Module):
    def __init__(self, n_in=7, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.LeakyReLU(), nn.Linear(hidden, 3))

    def forward(self, x):
        return torch.softmax(self.net(x), dim=-1)


def fit(batches, device="cuda"):
    model = PulseClassifier().to(device)
    loss_fn = FlavourCrossEntropy()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for feats, pid in batches:
        pred = model(feats.to(device))
        loss = loss_fn(pred, pid.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    pids = torch.tensor(np.random.choice([1, -12, 13, 14, -16], size=32))
    fit([(torch.randn(32, 7), pids)])
