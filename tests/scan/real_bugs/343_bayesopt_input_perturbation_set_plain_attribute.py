# source: https://github.com/meta-pytorch/botorch/pull/1035
# also: https://github.com/meta-pytorch/botorch/commit/f0113e2aecda24d8eb4617c157fa145d3224bd3f
# kind: attribute_not_buffer
# bug: input-transform modules stored their tensor settings (the appended feature set, the perturbation set and its bounds) as plain attributes, so moving the surrogate model with `.to(device)` left them on the CPU while the inputs were on the GPU; the merged fix registers them with `register_buffer`.
# split: test16
import torch
import torch.nn as nn


class InputPerturbation(nn.Module):
    def __init__(self, perturbation_set, bounds=None, multiplicative=False):
        super().__init__()
        if perturbation_set.dim() != 2:
            raise ValueError("perturbation_set must be a 2-d tensor")
        self.perturbation_set = perturbation_set  # bug: attribute_not_buffer
        self.bounds = bounds
        self.multiplicative = multiplicative

    def forward(self, X):
        p = self.perturbation_set
        Xp = X.unsqueeze(-2) * p if self.multiplicative else X.unsqueeze(-2) + p
        Xp = Xp.reshape(*X.shape[:-2], -1, X.shape[-1])
        if self.bounds is not None:
            Xp = torch.maximum(torch.minimum(Xp, self.bounds[1]), self.bounds[0])
        return Xp


class RobustSurrogate(nn.Module):
    def __init__(self, d, n_perturb=16):
        super().__init__()
        self.transform = InputPerturbation(0.05 * torch.randn(n_perturb, d), bounds=torch.stack([torch.zeros(d), torch.ones(d)]))
        self.net = nn.Sequential(nn.Linear(d, 64), nn.Tanh(), nn.Linear(64, 1))
        self.n_perturb = n_perturb

    def forward(self, X):
        y = self.net(self.transform(X)).squeeze(-1)
        return y.view(*X.shape[:-1], self.n_perturb).mean(-1)


def fit(train_X, train_Y, steps=200):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = RobustSurrogate(train_X.shape[-1]).to(device)
    train_X, train_Y = train_X.to(device), train_Y.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = ((model(train_X) - train_Y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model
