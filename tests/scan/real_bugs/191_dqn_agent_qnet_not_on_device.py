# source: https://github.com/chandar-lab/RLHive/pull/83
# also: https://github.com/chandar-lab/RLHive/commit/904e93d6e80c03cf7923e1e90b47809339224d0c
# kind: model_not_moved
# bug: the DQN agent took a device argument and moved every observation and replay batch to it, but built its Q-network (and the deep-copied target network) without moving it, so running the agent with device="cuda" fed CUDA tensors to CPU weights; the fix builds the Q-network with .to(device) before copying it.
# split: test7
import copy

import numpy as np
import torch
import torch.nn as nn


def build_qnet(in_dim, out_dim, hidden=256):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))


class DQNAgent:
    def __init__(self, obs_dim, act_dim, lr=1e-3, discount=0.99, device="cpu"):
        self._device = torch.device(device)
        self._qnet = build_qnet(obs_dim, act_dim)  # bug: model_not_moved
        self._target_qnet = copy.deepcopy(self._qnet).requires_grad_(False)
        self._optimizer = torch.optim.Adam(self._qnet.parameters(), lr=lr)
        self._discount = discount
        self._loss_fn = nn.SmoothL1Loss()

    @torch.no_grad()
    def act(self, observation):
        obs = torch.tensor(np.expand_dims(observation, axis=0)).to(self._device).float()
        qvals = self._qnet(obs).cpu()
        return int(torch.argmax(qvals))

    def update(self, batch):
        batch = {k: torch.tensor(v).to(self._device) for k, v in batch.items()}
        pred = self._qnet(batch["observation"].float())
        pred = pred[torch.arange(pred.shape[0]), batch["action"].long()]
        next_q = self._target_qnet(batch["next_observation"].float()).max(dim=1).values
        target = batch["reward"] + self._discount * next_q * (1 - batch["done"].float())
        loss = self._loss_fn(pred, target)
        self._optimizer.zero_grad()
        loss.backward()
        self._optimizer.step()
