# source: https://github.com/mckinsey/causalnex/pull/135
# kind: other
# bug: the NOTEARS structure learner optimises its network with scipy's L-BFGS-B and writes each candidate solution back into the module by building torch.from_numpy(flat_params) on the CPU and assigning slices of it to p.data, so a model placed on the GPU had its DAG-layer parameters silently swapped for CPU tensors during the optimisation step and the next forward pass failed with "Expected all tensors to be on the same device"; the fix moves the unflattened parameter vector to the model's device (and moves the re-initialised layers there too).
# split: test24
from typing import List

import numpy as np
import scipy.optimize as sopt
import torch
import torch.nn as nn


class NotearsNet(nn.Module):
    def __init__(self, n_features: int, hidden: int = 8, device: str = "cpu"):
        super().__init__()
        self.device = torch.device(device)
        self.dag_layer = nn.Linear(n_features, n_features * hidden)
        self.out = nn.Linear(hidden, 1)
        self.n_features = n_features
        self.hidden = hidden
        self.to(self.device)

    def forward(self, x):
        h = torch.sigmoid(self.dag_layer(x)).view(-1, self.n_features, self.hidden)
        return self.out(h).squeeze(-1)

    def h_func(self):
        w = self.dag_layer.weight.view(self.n_features, self.hidden, self.n_features)
        a = (w ** 2).sum(dim=1).t()
        return torch.trace(torch.matrix_exp(a)) - self.n_features


def flat_params(params: List[torch.Tensor]) -> np.ndarray:
    return torch.cat([p.data.view(-1) for p in params]).cpu().numpy().astype("float64")


def flat_grad(params: List[torch.Tensor]) -> np.ndarray:
    views = [p.data.new_zeros(p.numel()) if p.grad is None else p.grad.view(-1) for p in params]
    return torch.cat(views).cpu().numpy().astype("float64")


def update_params_from_flat(params: List[torch.Tensor], flat: np.ndarray):
    offset = 0
    flat_torch = torch.from_numpy(flat).to(torch.get_default_dtype())  # bug: other
    for p in params:
        n = p.numel()
        p.data = flat_torch[offset:offset + n].view_as(p.data)
        offset += n


def dual_ascent_step(model: NotearsNet, x: torch.Tensor, rho: float, alpha: float):
    params = [p for p in model.parameters()]

    def objective(flat):
        update_params_from_flat(params, flat)
        for p in params:
            p.grad = None
        h = model.h_func()
        loss = 0.5 * ((model(x) - x) ** 2).mean() + 0.5 * rho * h * h + alpha * h
        loss.backward()
        return loss.item(), flat_grad(params)

    sol = sopt.minimize(objective, flat_params(params), method="L-BFGS-B", jac=True)
    update_params_from_flat(params, sol.x)
    return model.h_func().item()


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    net = NotearsNet(5, device=dev)
    data = torch.randn(200, 5, device=dev)
    print(dual_ascent_step(net, data, rho=1.0, alpha=0.0))
