# source: https://github.com/kevinzakka/torchnca/pull/6
# also: https://github.com/kevinzakka/torchnca/commit/a6ee82a9cf01dbe6069b4216d038c613a5fe16e2
# kind: other
# bug: the NCA learner created its projection as `torch.nn.Parameter(a).to(self.device)`, which on CUDA returns a non-leaf copy, so the optimizer was handed a tensor that never received gradients and GPU training did not learn (issue #5); the fix moves `a` to the device first and wraps it in the Parameter afterwards.
# split: test3
import torch


class NCA:
    def __init__(self, dim=None, init="identity", max_iters=500, lr=1e-4, device="cuda"):
        self.dim = dim
        self.init = init
        self.max_iters = max_iters
        self.lr = lr
        self.device = torch.device(device)

    def _init_projection(self, n_features):
        dim = self.dim or n_features
        if self.init == "random":
            a = torch.randn(dim, n_features) * 0.01
        else:
            a = torch.eye(dim, n_features)
        self.A = torch.nn.Parameter(a).to(self.device)  # bug: other

    def _loss(self, X, y):
        emb = X @ self.A.t()
        d = torch.cdist(emb, emb) ** 2
        d.fill_diagonal_(float("inf"))
        p = torch.softmax(-d, dim=1)
        same = (y[:, None] == y[None, :]).float()
        return -(p * same).sum(1).mean()

    def fit(self, X, y):
        X, y = X.to(self.device), y.to(self.device)
        self._init_projection(X.shape[1])
        opt = torch.optim.SGD([self.A], lr=self.lr, momentum=0.9)
        for _ in range(self.max_iters):
            opt.zero_grad()
            loss = self._loss(X, y)
            loss.backward()
            opt.step()
        return self
