# source: https://github.com/pranz24/pytorch-soft-actor-critic/pull/21
# also: https://github.com/pranz24/pytorch-soft-actor-critic/commit/3664ba4e60555e9dd4046735cd7c1418d297e1b2
# kind: attribute_not_buffer
# bug: The deterministic SAC policy kept its exploration-noise tensor as a plain attribute and its hand-written to() override forgot it, so sampling on CUDA mixed a CPU noise tensor with CUDA actions; the fix moves the noise in to() (the author notes register_buffer is the native way).
# split: test
import torch
import torch.nn as nn


class DeterministicActor(nn.Module):
    def __init__(self, n_obs, n_act, hidden=256):
        super().__init__()
        self.l1 = nn.Linear(n_obs, hidden)
        self.mean = nn.Linear(hidden, n_act)
        self.noise = torch.Tensor(n_act)  # bug: attribute_not_buffer
        self.scale = torch.tensor(1.0)
        self.shift = torch.tensor(0.0)

    def forward(self, obs):
        return torch.tanh(self.mean(torch.relu(self.l1(obs)))) * self.scale + self.shift

    def sample(self, obs):
        act = self.forward(obs)
        eps = self.noise.normal_(0.0, 0.1).clamp(-0.25, 0.25)
        return act + eps

    def to(self, device):
        self.scale = self.scale.to(device)
        self.shift = self.shift.to(device)
        return super().to(device)
