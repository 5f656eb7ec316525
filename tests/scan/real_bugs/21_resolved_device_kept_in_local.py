# source: https://github.com/lasso-net/lassonet/issues/9
# also: https://github.com/lasso-net/lassonet/commit/f8c62889a3722dcf9e5e7b9b0d69c43040f49807
# kind: other
# bug: The estimator stored self.device before resolving the default, and only the local variable got "cuda if available", so self.device stayed None and the network was never placed on the GPU; the fix assigns self.device after the resolution.
# split: dev
import torch
import torch.nn as nn


class SparseNetRegressor:
    def __init__(self, hidden=(64,), lr=1e-3, device=None):
        self.hidden = hidden
        self.lr = lr
        self.device = device  # bug: other
        if device is None:
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = None

    def _build(self, n_in):
        layers, width = [], n_in
        for h in self.hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, 1))
        return nn.Sequential(*layers).to(self.device)

    def fit(self, X, y, epochs=100):
        X = torch.as_tensor(X, dtype=torch.float32, device=self.device)
        y = torch.as_tensor(y, dtype=torch.float32, device=self.device).view(-1, 1)
        self.model = self._build(X.shape[1])
        opt = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        for _ in range(epochs):
            opt.zero_grad()
            nn.functional.mse_loss(self.model(X), y).backward()
            opt.step()
        return self
