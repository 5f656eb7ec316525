# source: https://github.com/skorch-dev/skorch/pull/455
# also: https://github.com/skorch-dev/skorch/commit/81ae225e976ec5343c5d50d9dc4369d3621e13e8
# kind: model_not_moved
# bug: the sklearn-style training wrapper moved the network module to the configured device but instantiated the criterion module (which can carry class-weight tensors) without moving it, so a weighted loss on CUDA mixed a CPU weight with GPU logits; the fix calls `.to(self.device)` on the criterion when it is an nn.Module.
# split: test19
import torch
import torch.nn as nn


class TorchClassifier:
    def __init__(self, module, criterion=nn.CrossEntropyLoss, device="cuda", lr=0.01, **params):
        self.module = module
        self.criterion = criterion
        self.device = device
        self.lr = lr
        self.params = params

    def _params_for(self, prefix):
        p = prefix + "__"
        return {k[len(p):]: v for k, v in self.params.items() if k.startswith(p)}

    def initialize_module(self):
        self.module_ = self.module(**self._params_for("module")).to(self.device)

    def initialize_criterion(self):
        self.criterion_ = self.criterion(**self._params_for("criterion"))  # bug: model_not_moved

    def initialize(self):
        self.initialize_module()
        self.initialize_criterion()
        self.optimizer_ = torch.optim.SGD(self.module_.parameters(), lr=self.lr)
        return self

    def fit(self, X, y, epochs=5):
        self.initialize()
        X, y = X.to(self.device), y.to(self.device)
        for _ in range(epochs):
            loss = self.criterion_(self.module_(X), y)
            self.optimizer_.zero_grad()
            loss.backward()
            self.optimizer_.step()
        return self


class MLP(nn.Module):
    def __init__(self, n_in=20, n_out=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, n_out))

    def forward(self, x):
        return self.net(x)


if __name__ == "__main__":
    clf = TorchClassifier(MLP, criterion__weight=torch.tensor([1.0, 2.0, 5.0]), module__n_in=20)
    clf.fit(torch.randn(64, 20), torch.randint(0, 3, (64,)))
