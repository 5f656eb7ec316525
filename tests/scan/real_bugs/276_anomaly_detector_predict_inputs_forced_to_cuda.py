# source: https://github.com/xuhongzuo/couta/pull/1
# also: https://github.com/xuhongzuo/couta/commit/0ec32661e2a4047813e80618ee8c66e178b4eca0
# kind: other
# bug: the time-series anomaly detector took a `device` option and used it for the network and every training and validation batch, but `predict()` moved each test window with a literal `.to('cuda')`, so a model fitted with `device='cpu'` received CUDA inputs (or failed without a GPU); the fix uses `self.device` in `predict`.
# split: test12
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class DilatedEncoder(nn.Module):
    def __init__(self, n_features, hidden=64, rep_dim=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_features, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv1d(hidden, hidden, 3, padding=2, dilation=2), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, rep_dim)

    def forward(self, x):
        h = self.conv(x.transpose(1, 2))[:, :, -1]
        return self.head(h)


def windows(values, length, stride=1):
    return np.stack([values[i : i + length] for i in range(0, len(values) - length + 1, stride)])


class WindowAnomalyDetector:
    def __init__(self, sequence_length=100, epochs=10, batch_size=64, lr=1e-4, device="cuda"):
        self.sequence_length = sequence_length
        self.epochs = epochs
        self.batch_size = batch_size
        self.lr = lr
        self.device = device

    def fit(self, values):
        seqs = windows(values, self.sequence_length)
        self.net = DilatedEncoder(values.shape[1]).to(self.device)
        opt = torch.optim.Adam(self.net.parameters(), lr=self.lr)
        loader = DataLoader(torch.from_numpy(seqs), batch_size=self.batch_size, shuffle=True)
        with torch.no_grad():
            reps = [self.net(x.float().to(self.device)) for x in loader]
        self.c = torch.cat(reps).mean(0)
        for _ in range(self.epochs):
            for x in loader:
                x = x.float().to(self.device)
                loss = ((self.net(x) - self.c) ** 2).sum(1).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
        return self

    def predict(self, values):
        seqs = windows(values, self.sequence_length)
        loader = DataLoader(torch.from_numpy(seqs), batch_size=self.batch_size, shuffle=False)
        self.net.eval()
        scores = []
        with torch.no_grad():
            for x in loader:
                x = x.float().to("cuda")  # bug: other
                scores.append(((self.net(x) - self.c) ** 2).sum(1).cpu())
        return torch.cat(scores).numpy()
