# source: https://github.com/takuseno/d3rlpy/issues/329
# also: https://github.com/takuseno/d3rlpy/commit/98a188f1832adec1014589a06a47bcc46ebdb1cf
# kind: other
# bug: the Q-function builder measured each freshly created encoder's output width by feeding it dummy inputs made with `torch.rand(..., device=device)` on the configured CUDA device, while the encoder itself was still on the CPU (it was only moved with the ensemble afterwards), so building a CQL agent with `device="cuda:0"` failed; the fix (PR #330) takes the probe's device from the encoder's parameters.
# split: test13
from typing import Sequence, Tuple

import torch
import torch.nn as nn


class PixelEncoder(nn.Module):
    def __init__(self, obs_shape: Tuple[int, ...], feature_size: int = 512):
        super().__init__()
        c = obs_shape[0]
        self.convs = nn.Sequential(
            nn.Conv2d(c, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
            nn.Flatten(),
        )
        self.fc = nn.LazyLinear(feature_size)

    def forward(self, x):
        return torch.relu(self.fc(self.convs(x)))


class QHead(nn.Module):
    def __init__(self, encoder: nn.Module, hidden: int, n_actions: int):
        super().__init__()
        self.encoder = encoder
        self.fc = nn.Linear(hidden, n_actions)

    def forward(self, x):
        return self.fc(self.encoder(x))


def probe_output_size(input_shapes: Sequence[Tuple[int, ...]], encoder: nn.Module, device: str) -> int:
    with torch.no_grad():
        dummies = [torch.rand(1, *shape, device=device) for shape in input_shapes]  # bug: other
        y = encoder(*dummies)
    return int(y.shape[1])


def build_q_ensemble(obs_shape, n_actions: int, device: str, n_ensembles: int = 2) -> nn.ModuleList:
    heads = []
    for _ in range(n_ensembles):
        encoder = PixelEncoder(obs_shape)
        hidden = probe_output_size([obs_shape], encoder, device)
        heads.append(QHead(encoder, hidden, n_actions))
    ensemble = nn.ModuleList(heads)
    ensemble.to(device)
    return ensemble


if __name__ == "__main__":
    q_funcs = build_q_ensemble((4, 84, 84), n_actions=6, device="cuda:0")
    obs = torch.rand(32, 4, 84, 84, device="cuda:0")
    print([q(obs).shape for q in q_funcs])
