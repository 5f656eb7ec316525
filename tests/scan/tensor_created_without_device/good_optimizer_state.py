import torch
from torch.optim import Optimizer


class FactoredAdagrad(Optimizer):
    def __init__(self, params, lr=0.1, eps=1e-30):
        super().__init__(params, dict(lr=lr, eps=eps))
        self.steps = torch.zeros(1)  # bookkeeping made in __init__, read on the host

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:
                    state["row"] = torch.zeros(p.shape[0], 1, device=p.device)
                    state["col"] = torch.zeros_like(p[:1])
                    state["tmp"] = torch.zeros(p.shape[0], 1).to(p.device)
                state["row"].add_(p.grad.pow(2).mean(dim=tuple(range(1, p.dim())), keepdim=True))
                p.add_(p.grad / (state["row"].sqrt() + group["eps"]), alpha=-group["lr"])
