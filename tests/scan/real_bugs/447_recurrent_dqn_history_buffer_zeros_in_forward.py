# source: https://github.com/MarWaltz/TUD_RL/issues/21
# kind: tensor_no_device_in_forward
# bug: the spatial-temporal recurrent DQN built its per-call sequence buffer with torch.zeros((batch, history + 1, 128)) inside forward without a device, so with the agent configured for CUDA the outer LSTM received a CPU tensor while its weights were on the GPU and training crashed; the fix creates the buffer on the network's device.
# split: test21
import torch
import torch.nn as nn
import torch.nn.functional as F


class ShipRecurrentDQN(nn.Module):
    def __init__(self, num_actions, num_obs_own=7, num_obs_target=6):
        super().__init__()
        self.num_obs_own = num_obs_own
        self.num_obs_target = num_obs_target
        self.own_dense = nn.Linear(num_obs_own, 64)
        self.target_lstm = nn.LSTM(num_obs_target, 64, batch_first=True)
        self.target_dense = nn.Linear(64, 64)
        self.outer_lstm = nn.LSTM(128, 64, batch_first=True)
        self.q1 = nn.Linear(64, 64)
        self.q2 = nn.Linear(64, num_actions)

    def _spatial(self, s):
        own = F.relu(self.own_dense(s[:, : self.num_obs_own]))
        targets = s[:, self.num_obs_own:].reshape(s.shape[0], -1, self.num_obs_target)
        _, (h, _) = self.target_lstm(targets)
        tgt = F.relu(self.target_dense(h[-1]))
        return torch.cat([own, tgt], dim=-1)

    def forward(self, s, s_hist, hist_len):
        batch_size, history_length, _ = s_hist.shape
        seq = torch.zeros((batch_size, history_length + 1, 128))  # bug: tensor_no_device_in_forward

        s_t2 = s_hist[:, 0, :].clone()
        s_t2[hist_len < 2, :] = 0.0
        t1_idx = (hist_len - 1).clamp(min=0)
        s_t1 = s_hist[torch.arange(batch_size), t1_idx, :].clone()
        s_t1[hist_len < 1, :] = 0.0

        seq[:, 0, :] = self._spatial(s_t2)
        seq[:, 1, :] = self._spatial(s_t1)
        seq[:, 2, :] = self._spatial(s)

        out, _ = self.outer_lstm(seq)
        hidden = out[torch.arange(batch_size), hist_len]
        return self.q2(F.relu(self.q1(hidden)))


class RecDQNAgent:
    def __init__(self, num_actions, device):
        self.device = device
        self.dqn = ShipRecurrentDQN(num_actions=num_actions).to(self.device)
        self.optimizer = torch.optim.Adam(self.dqn.parameters(), lr=1e-4)

    def train_step(self, s, s_hist, hist_len, a, target):
        s, s_hist = s.to(self.device), s_hist.to(self.device)
        hist_len, a, target = hist_len.to(self.device), a.to(self.device), target.to(self.device)
        q = self.dqn(s, s_hist, hist_len).gather(1, a[:, None]).squeeze(1)
        loss = F.mse_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = RecDQNAgent(num_actions=3, device=device)
    obs_dim = 7 + 6 * 4
    s = torch.randn(8, obs_dim)
    s_hist = torch.randn(8, 2, obs_dim)
    hist_len = torch.randint(0, 3, (8,))
    print(agent.train_step(s, s_hist, hist_len, torch.randint(0, 3, (8,)), torch.randn(8)))
