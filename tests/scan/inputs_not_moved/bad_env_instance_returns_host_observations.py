# A plain environment class of the file returns observations made on the CPU; the evaluation loop
# hands them to a method of the policy it moved to the GPU.
import numpy as np
import torch
from torch import nn


class VecEnv:
    def __init__(self, n=4, dim=8):
        self.n, self.dim = n, dim

    def reset(self):
        return torch.from_numpy(np.random.randn(self.n, self.dim)).float()


class Policy(nn.Module):
    def __init__(self, dim=8, actions=3):
        super().__init__()
        self.body = nn.Linear(dim, actions)

    def act(self, obs):
        return self.body(obs).argmax(-1)


def evaluate(device):
    policy = Policy().to(device)
    env = VecEnv()
    obs = env.reset()  # expect: code.inputs_not_moved
    with torch.no_grad():
        return policy.act(obs)
