# Tensor attributes a module moves in its own to() override, and an observation the code rebinds
# to fresh data at every step (state it keeps, not a constant of the module): neither wants a buffer.
import torch
from torch import nn


class SquashedPolicy(nn.Module):
    def __init__(self, n_obs, n_act, low, high):
        super().__init__()
        self.body = nn.Linear(n_obs, n_act)
        self.scale = torch.FloatTensor((high - low) / 2.0)
        self.shift = torch.FloatTensor((high + low) / 2.0)

    def forward(self, obs):
        return torch.tanh(self.body(obs)) * self.scale + self.shift

    def to(self, device):
        self.scale = self.scale.to(device)
        self.shift = self.shift.to(device)
        return super().to(device)


class Rollout(nn.Module):
    def __init__(self, env, policy):
        super().__init__()
        self.env = env
        self.policy = policy
        self.obs = torch.FloatTensor(env.reset())

    def step(self, device):
        self.obs = self.obs.to(device=device)
        action = self.policy(self.obs)
        next_obs, reward, done = self.env.step(action.cpu().numpy())
        self.obs = torch.FloatTensor(next_obs)
        return reward, done
