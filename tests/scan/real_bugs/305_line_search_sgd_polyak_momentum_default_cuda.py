# source: https://github.com/IssamLaradji/sls/issues/7
# also: https://github.com/IssamLaradji/sls/commit/e2522d5ad765e2fc5826c11518914d820add9d4f
# kind: other
# bug: the accelerated Armijo line-search optimizer kept deep copies of the previous parameters and, in its Polyak (and Nesterov) momentum update, moved them with a bare `.cuda()`, which lands on the default GPU (and fails without CUDA) instead of the device of the parameter being updated, so training a model on a second GPU failed; the fix uses `.to(p_model.data.device)`.
# split: test14
import copy

import torch


def armijo_ok(step_size, loss, grad_norm, loss_next, c=0.1):
    return loss_next <= loss - c * step_size * grad_norm ** 2


class AcceleratedLineSearch(torch.optim.Optimizer):
    def __init__(self, params, init_step_size=1.0, momentum=0.6, beta=0.9):
        params = list(params)
        super().__init__(params, {})
        self.params = params
        self.momentum, self.beta = momentum, beta
        self.state["step_size"] = init_step_size
        self.state["params_current"] = copy.deepcopy(params)

    @torch.no_grad()
    def _try_update(self, step_size, params_current, grads):
        for p, p0, g in zip(self.params, params_current, grads):
            if g is not None:
                p.data = p0 - step_size * g

    def step(self, closure):
        with torch.enable_grad():
            loss = closure()
            loss.backward()
        params_current = copy.deepcopy(self.params)
        grads = [p.grad for p in self.params]
        grad_norm = torch.sqrt(sum((g ** 2).sum() for g in grads if g is not None))
        params_old = copy.deepcopy(self.state["params_current"])
        self.state["params_current"] = params_current
        step_size = self.state["step_size"]
        with torch.no_grad():
            for _ in range(100):
                self._try_update(step_size, params_current, grads)
                if armijo_ok(step_size, loss, grad_norm, closure()):
                    break
                step_size *= self.beta
        polyak_update(self.params, params_current, grads, params_old, self.momentum)
        self.state["step_size"] = step_size
        return loss


def polyak_update(params_model, params_current, grads, params_old, momentum):
    for p_model, p_current, g, p_old in zip(params_model, params_current, grads, params_old):
        if g is None:
            continue
        p_model.data = p_model.data + momentum * (p_current - p_old.cuda())  # bug: other


if __name__ == "__main__":
    device = torch.device("cuda:1")
    model = torch.nn.Linear(32, 10).to(device)
    opt = AcceleratedLineSearch(model.parameters())
    x, y = torch.randn(64, 32, device=device), torch.randint(0, 10, (64,), device=device)
    opt.zero_grad()
    opt.step(lambda: torch.nn.functional.cross_entropy(model(x), y))
