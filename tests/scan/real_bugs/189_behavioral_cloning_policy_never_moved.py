# source: https://github.com/NathanGavenski/IL-Datasets/commit/19f8911e570a4040260bff2fb729bc11745ec8f6
# kind: model_not_moved
# bug: the behavioural-cloning method set self.device to cuda when available and moved every state/action batch (and the observations in predict) to it, but the MLP policy was created on the CPU and never moved, so training crashed on a GPU machine; the fix ("Fix for policy not on the same device") calls self.policy.to(self.device) before the training loop.
# split: test7
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class MLP(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, out_dim))

    def forward(self, x):
        return self.net(x)


class BehaviouralCloning:
    def __init__(self, observation_size, action_size, lr=1e-3):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.policy = MLP(observation_size, action_size)  # bug: model_not_moved
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss()

    def predict(self, obs):
        self.policy.eval()
        obs = torch.as_tensor(obs, dtype=torch.float32).to(self.device)
        with torch.no_grad():
            return self.policy(obs).argmax(-1).tolist()

    def train(self, n_epochs: int, train_loader: DataLoader):
        for _ in range(n_epochs):
            self._train(train_loader)

    def _train(self, loader):
        self.policy.train()
        for state, action in loader:
            state = state.to(self.device)
            action = action.to(self.device)
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.policy(state), action)
            loss.backward()
            self.optimizer.step()
