# source: https://github.com/rlworkgroup/garage/issues/2231
# also: https://github.com/rlworkgroup/garage/pull/2189
# also: https://github.com/rlworkgroup/garage/commit/f056fb8f6226c83d340c869e0d5312d61acf07f0
# kind: module_in_forward
# bug: the PyTorch categorical CNN policy constructed a whole new CNN module inside forward() on every call, so its weights were freshly initialised, never registered or trained, and created on the CPU even when get_actions had moved the observations to the global (CUDA) device; the CNN-module rework (#2189) builds the CNN and MLP heads once in __init__.
# split: test7
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

_DEVICE = torch.device("cpu")


def set_gpu_mode(on, gpu_id=0):
    global _DEVICE
    _DEVICE = torch.device(f"cuda:{gpu_id}" if on else "cpu")


class CategoricalCNN(nn.Module):
    def __init__(self, in_channels, n_actions, hidden_channels=(16, 32), hidden=64):
        super().__init__()
        layers, c = [], in_channels
        for h in hidden_channels:
            layers += [nn.Conv2d(c, h, 3, stride=2), nn.ReLU()]
            c = h
        self.conv = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(c, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return Categorical(logits=self.head(self.conv(obs)))


class CategoricalCNNPolicy(nn.Module):
    def __init__(self, obs_shape, n_actions, hidden_channels=(16, 32)):
        super().__init__()
        self._obs_shape = obs_shape
        self._n_actions = n_actions
        self._hidden_channels = hidden_channels

    def forward(self, observations):
        module = CategoricalCNN(observations.shape[1], self._n_actions, self._hidden_channels)  # bug: module_in_forward
        return module(observations), {}

    def get_actions(self, observations):
        with torch.no_grad():
            obs = torch.as_tensor(np.stack(observations)).float().to(_DEVICE) / 255.0
            dist, info = self.forward(obs)
            return dist.sample().cpu().numpy(), info


if __name__ == "__main__":
    set_gpu_mode(True)
    policy = CategoricalCNNPolicy((3, 64, 64), n_actions=6).to(_DEVICE)
    print(policy.get_actions([np.zeros((3, 64, 64), dtype=np.uint8)]))
