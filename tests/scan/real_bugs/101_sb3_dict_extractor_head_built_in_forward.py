# source: https://github.com/DLR-RM/stable-baselines3/issues/491
# kind: module_in_forward
# bug: a user's custom features extractor for a dict observation space concatenated the per-key features and then built its final nn.Sequential(Linear, Tanh, ...) inside forward, so under a CUDA DQN the fresh CPU layer met CUDA features (device mismatch) and was never trained; the maintainer's diagnosis: create every layer in __init__ (the user confirmed the mistake).
# split: test2
import gym
import torch
from torch import nn
from stable_baselines3 import DQN
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class DictFeatures(BaseFeaturesExtractor):
    def __init__(self, observation_space: gym.spaces.Dict, features_dim: int = 64):
        super().__init__(observation_space, features_dim)
        self.encoders = nn.ModuleDict(
            {k: nn.Linear(int(space.shape[0]), 16) for k, space in observation_space.spaces.items()}
        )

    def forward(self, obs):
        parts = [torch.tanh(self.encoders[k](obs[k])) for k in self.encoders]
        cat = torch.cat(parts, dim=1)
        self.head = nn.Sequential(  # bug: module_in_forward
            nn.Linear(cat.shape[1], self.features_dim * 2), nn.Tanh(),
            nn.Linear(self.features_dim * 2, self.features_dim), nn.Tanh(),
        )
        return self.head(cat)


def train(env):
    model = DQN(
        "MultiInputPolicy",
        env,
        policy_kwargs=dict(features_extractor_class=DictFeatures),
        device="cuda",
    )
    model.learn(total_timesteps=10_000)
    return model
