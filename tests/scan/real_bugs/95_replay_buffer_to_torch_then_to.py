# source: https://github.com/DLR-RM/stable-baselines3/pull/1218
# also: https://github.com/DLR-RM/stable-baselines3/commit/68a40e094022e4fc11210a625d9b1f300ede3759
# kind: per_step_host_alloc
# bug: the replay buffer converted every sampled numpy batch with th.tensor(array).to(self.device), building an extra CPU tensor per field on every gradient step (also in obs_as_tensor during rollouts); the fix constructs the tensors with device=self.device, a 7.5% speedup on an Atari DQN run.
# split: test2
import numpy as np
import torch


class ReplayMemory:
    def __init__(self, size: int, obs_shape, device="cuda"):
        self.device = torch.device(device)
        self.obs = np.zeros((size, *obs_shape), dtype=np.float32)
        self.next_obs = np.zeros((size, *obs_shape), dtype=np.float32)
        self.actions = np.zeros((size, 1), dtype=np.int64)
        self.rewards = np.zeros((size, 1), dtype=np.float32)
        self.dones = np.zeros((size, 1), dtype=np.float32)
        self.pos, self.full, self.size = 0, False, size

    def add(self, o, o2, a, r, d):
        i = self.pos
        self.obs[i], self.next_obs[i], self.actions[i], self.rewards[i], self.dones[i] = o, o2, a, r, d
        self.pos = (self.pos + 1) % self.size
        self.full = self.full or self.pos == 0

    def as_tensor(self, array: np.ndarray, copy: bool = True) -> torch.Tensor:
        if copy:
            return torch.tensor(array).to(self.device)  # bug: per_step_host_alloc
        return torch.as_tensor(array).to(self.device)  # bug: per_step_host_alloc

    def sample(self, batch_size: int):
        top = self.size if self.full else self.pos
        idx = np.random.randint(0, top, size=batch_size)
        fields = (self.obs[idx], self.actions[idx], self.next_obs[idx], self.dones[idx], self.rewards[idx])
        return tuple(self.as_tensor(f) for f in fields)


def train_steps(q_net, target_net, memory, opt, steps: int, gamma: float = 0.99):
    for _ in range(steps):
        obs, act, nxt, done, rew = memory.sample(32)
        with torch.no_grad():
            target = rew + gamma * (1 - done) * target_net(nxt).max(1, keepdim=True)[0]
        loss = torch.nn.functional.smooth_l1_loss(q_net(obs).gather(1, act), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
