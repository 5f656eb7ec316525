# source: https://github.com/LucasAlegre/morl-baselines/issues/153
# also: https://github.com/LucasAlegre/morl-baselines/pull/154
# also: https://github.com/LucasAlegre/morl-baselines/commit/e5ce80b649a858cc8c79def1a6ef4df3f57610c0
# kind: other
# bug: the PCN agent initialised its two base classes with `MOAgent.__init__(self, env, device=device)` and `MOPolicy.__init__(self, device)`, but MOPolicy's first positional parameter is `id`, so the user's device was stored as the policy id and `self.device` was reset to the "auto" default (CUDA whenever available); a run asked to stay on the CPU built its network on CUDA while tensors made for the requested device stayed on the CPU, and training failed with "Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0"; the fix passes `device=device` by keyword.
# split: test11
from typing import Optional, Union

import numpy as np
import torch as th
import torch.nn as nn


def resolve_device(device):
    return th.device("cuda" if th.cuda.is_available() else "cpu") if device == "auto" else th.device(device)


class MultiObjectiveAgent:
    def __init__(self, env, device: Union[th.device, str] = "auto", seed: Optional[int] = None):
        self.env = env
        self.device = resolve_device(device)
        self.seed = seed


class MultiObjectivePolicy:
    def __init__(self, id: Optional[int] = None, device: Union[th.device, str] = "auto"):
        self.id = id
        self.device = resolve_device(device)
        self.global_step = 0


class CommandNet(nn.Module):
    def __init__(self, obs_dim, reward_dim, n_actions, hidden=64, scale=None):
        super().__init__()
        self.register_buffer("scale", th.as_tensor(scale if scale is not None else np.ones(reward_dim + 1), dtype=th.float32))
        self.obs = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Sigmoid())
        self.cmd = nn.Sequential(nn.Linear(reward_dim + 1, hidden), nn.Sigmoid())
        self.out = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs, desired_return, desired_horizon):
        command = th.cat((desired_return, desired_horizon), dim=-1) * self.scale
        return self.out(self.obs(obs) * self.cmd(command))


class ConditionedAgent(MultiObjectiveAgent, MultiObjectivePolicy):
    def __init__(self, env, obs_dim, reward_dim, n_actions, device="auto", seed=None, lr=1e-3):
        MultiObjectiveAgent.__init__(self, env, device=device, seed=seed)
        MultiObjectivePolicy.__init__(self, device)  # bug: other
        self.model = CommandNet(obs_dim, reward_dim, n_actions).to(self.device)
        self.opt = th.optim.Adam(self.model.parameters(), lr=lr)

    def update(self, obs, desired_return, desired_horizon, actions):
        obs = th.as_tensor(np.asarray(obs), dtype=th.float32, device=self.device)
        ret = th.as_tensor(np.asarray(desired_return), dtype=th.float32, device=self.device)
        hor = th.as_tensor(np.asarray(desired_horizon), dtype=th.float32, device=self.device).unsqueeze(1)
        logits = self.model(obs, ret, hor)
        target = th.as_tensor(np.asarray(actions), dtype=th.long, device=self.device)
        loss = nn.functional.cross_entropy(logits, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def evaluate_on(agent, device, n=8):
    obs = th.rand(n, 4, device=device)
    ret = th.rand(n, 2, device=device)
    hor = th.ones(n, 1, device=device)
    with th.no_grad():
        return agent.model(obs, ret, hor).argmax(dim=-1)


if __name__ == "__main__":
    requested = "cpu"
    agent = ConditionedAgent(env=None, obs_dim=4, reward_dim=2, n_actions=3, device=requested)
    agent.update(np.random.rand(8, 4), np.random.rand(8, 2), np.ones(8), np.random.randint(0, 3, 8))
    print(evaluate_on(agent, requested))
