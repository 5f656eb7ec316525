# source: https://github.com/ARISE-Initiative/robomimic/pull/124
# also: https://github.com/ARISE-Initiative/robomimic/commit/bdc89f7a1975aa3df46c5a9656afd22517e999c7
# kind: tensor_no_device_in_forward
# bug: the Gaussian observation randomizer drew its noise with torch.rand(size=out.shape) on the CPU and added it to the CUDA observations, so augmented GPU training crashed; the fix moves the noise to inputs.device.
# split: test4
import torch
import torch.nn as nn


class NoiseAugment(nn.Module):
    def __init__(self, shape, std=0.1, mean=0.0, samples=1, limits=None):
        super().__init__()
        self.shape = shape
        self.std = std
        self.mean = mean
        self.samples = samples
        self.limits = limits

    def forward_in(self, obs):
        if not self.training:
            return obs
        out = obs.repeat_interleave(self.samples, dim=0)
        out = torch.rand(size=out.shape) * self.std + self.mean + out  # bug: tensor_no_device_in_forward
        if self.limits is not None:
            out = out.clamp(self.limits[0], self.limits[1])
        return out

    def forward_out(self, feats):
        if not self.training or self.samples == 1:
            return feats
        b = feats.shape[0] // self.samples
        return feats.view(b, self.samples, *feats.shape[1:]).mean(dim=1)


class Encoder(nn.Module):
    def __init__(self, obs_dim, feat_dim):
        super().__init__()
        self.aug = NoiseAugment((obs_dim,), std=0.05, samples=2)
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, feat_dim))

    def forward(self, obs):
        return self.aug.forward_out(self.net(self.aug.forward_in(obs)))
