# source: https://github.com/activatedgeek/torchrl/pull/12
# also: https://github.com/activatedgeek/torchrl/commit/5c7746bb219a74f219742a1dfae6894bfc36f627
# kind: inputs_not_moved
# bug: the RL training harness put the Q-networks on `args.device`, but the DQN problem stacked the sampled replay transitions with torch.stack (CPU tensors) and passed them straight to the learner, and the rollout runner likewise built the observation batch from numpy without moving it; the fix adds `.to(device)` to the stacked batch and the observation tensor.
# split: test18
import random
from collections import deque

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNLearner:
    def __init__(self, obs_dim, n_actions, gamma=0.99, device="cpu"):
        self.q_net = QNet(obs_dim, n_actions).to(device)
        self.target_q_net = QNet(obs_dim, n_actions).to(device)
        self.target_q_net.load_state_dict(self.q_net.state_dict())
        self.optim = torch.optim.Adam(self.q_net.parameters(), lr=1e-3)
        self.gamma = gamma

    def learn(self, obs, action, reward, next_obs, done):
        q = self.q_net(obs).gather(1, action)
        with torch.no_grad():
            nq = self.target_q_net(next_obs).max(1)[0].unsqueeze(1)
            target = reward + self.gamma * nq * (1 - done)
        loss = F.mse_loss(q, target)
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()


class DQNProblem:
    def __init__(self, args, obs_dim=4, n_actions=2):
        self.args = args
        self.agent = DQNLearner(obs_dim, n_actions, device=args["device"])
        self.buffer = deque(maxlen=10000)
        self.batch_size = 32

    def push(self, obs, action, reward, next_obs, done):
        self.buffer.append((torch.as_tensor(obs, dtype=torch.float32), torch.tensor([action]),
                            torch.tensor([reward], dtype=torch.float32),
                            torch.as_tensor(next_obs, dtype=torch.float32), torch.tensor([float(done)])))

    def train_step(self):
        if len(self.buffer) < self.batch_size:
            return {}
        batch = random.sample(self.buffer, self.batch_size)
        batch = [torch.stack(item) for item in zip(*batch)]  # bug: inputs_not_moved
        return {"value_loss": self.agent.learn(*batch)}


if __name__ == "__main__":
    problem = DQNProblem({"device": torch.device("cuda" if torch.cuda.is_available() else "cpu")})
    for _ in range(64):
        problem.push(np.random.randn(4), random.randint(0, 1), 1.0, np.random.randn(4), False)
    print(problem.train_step())
