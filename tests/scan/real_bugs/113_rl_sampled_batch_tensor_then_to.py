# source: https://github.com/sdpkjc/abcdrl/pull/2
# also: https://github.com/sdpkjc/abcdrl/commit/8a841bcf61a293af9573d0b0e9c3d87d30220dcb
# kind: per_step_host_alloc
# bug: every agent's learn step turned each sampled replay-buffer array into a tensor with `torch.tensor(array).to(device)`, an extra host copy followed by a transfer on every update; the merged PR switched to `torch.as_tensor(array, device=device)`.
# split: test3
import numpy as np
import torch
import torch.nn.functional as F


class ReplayBuffer:
    def __init__(self, size, obs_dim):
        self.obs = np.zeros((size, obs_dim), np.float32)
        self.next_obs = np.zeros((size, obs_dim), np.float32)
        self.acts = np.zeros((size,), np.int64)
        self.rews = np.zeros((size,), np.float32)
        self.dones = np.zeros((size,), np.float32)
        self.n = size

    def sample(self, batch_size):
        idx = np.random.randint(0, self.n, size=batch_size)
        return {"obs": self.obs[idx], "next_obs": self.next_obs[idx], "acts": self.acts[idx],
                "rews": self.rews[idx], "dones": self.dones[idx]}


class DQNAgent:
    def __init__(self, q_net, target_net, buffer, device="cuda", gamma=0.99):
        self.q, self.target, self.buffer = q_net.to(device), target_net.to(device), buffer
        self.opt = torch.optim.Adam(self.q.parameters(), lr=2.5e-4)
        self.device, self.gamma = device, gamma

    def learn(self, batch_size=32):
        raw = self.buffer.sample(batch_size)
        batch = {k: torch.tensor(v).to(self.device) for k, v in raw.items()}  # bug: per_step_host_alloc
        with torch.no_grad():
            target = batch["rews"] + self.gamma * self.target(batch["next_obs"]).max(1).values * (1 - batch["dones"])
        q = self.q(batch["obs"]).gather(1, batch["acts"].unsqueeze(1)).squeeze(1)
        loss = F.mse_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()
