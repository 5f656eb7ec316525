# source: https://github.com/facebookresearch/optimizers/issues/3
# kind: other
# bug: the Shampoo optimizer kept its preconditioner factor matrices inside helper objects stored in optimizer state, so loading a checkpoint with map_location="cpu" through the default Optimizer.load_state_dict left those tensors on the CPU while the parameters were on the GPU; the maintainers fixed it by overriding load_state_dict to restore the preconditioners onto each parameter's device.
# split: test23
import torch
from torch.optim import Optimizer


class ShampooPreconditioner:
    def __init__(self, param: torch.Tensor, epsilon=1e-12):
        self.dims = list(param.shape) if param.dim() > 1 else [param.numel()]
        self.epsilon = epsilon
        self.factors = [torch.zeros(d, d, device=param.device) for d in self.dims]
        self.inv_roots = [torch.eye(d, device=param.device) for d in self.dims]

    def update(self, grad):
        g = grad.reshape(self.dims) if len(self.dims) == 1 else grad
        if len(self.dims) == 1:
            self.factors[0].add_(torch.outer(g, g))
        else:
            self.factors[0].add_(g @ g.T)
            self.factors[1].add_(g.T @ g)

    def compute_root_inverse(self):
        p = 2 * len(self.dims)
        for i, f in enumerate(self.factors):
            evals, evecs = torch.linalg.eigh(f + self.epsilon * torch.eye(f.shape[0], device=f.device))
            self.inv_roots[i] = evecs @ torch.diag(evals.clamp_min(self.epsilon) ** (-1.0 / p)) @ evecs.T

    def precondition(self, grad):
        if len(self.dims) == 1:
            return self.inv_roots[0] @ grad
        return self.inv_roots[0] @ grad @ self.inv_roots[1]

    def to_dict(self):
        return {"factors": self.factors, "inv_roots": self.inv_roots}

    def from_dict(self, d):
        self.factors = d["factors"]  # bug: other
        self.inv_roots = d["inv_roots"]


class Shampoo(Optimizer):
    def __init__(self, params, lr=1e-2, precondition_frequency=10):
        super().__init__(params, dict(lr=lr, precondition_frequency=precondition_frequency))
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["step"] = 0
                self.state[p]["precond"] = ShampooPreconditioner(p)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                st = self.state[p]
                st["step"] += 1
                st["precond"].update(p.grad)
                if st["step"] % group["precondition_frequency"] == 1:
                    st["precond"].compute_root_inverse()
                p.add_(st["precond"].precondition(p.grad), alpha=-group["lr"])

    def state_dict(self):
        sd = super().state_dict()
        sd["state"] = {k: {**v, "precond": v["precond"].to_dict()} for k, v in sd["state"].items()}
        return sd

    def load_state_dict(self, state_dict):
        raw = {k: v.pop("precond") for k, v in state_dict["state"].items()}
        super().load_state_dict(state_dict)
        params = [p for g in self.param_groups for p in g["params"]]
        for idx, p in enumerate(params):
            pc = ShampooPreconditioner(p)
            pc.from_dict(raw[idx])
            self.state[p]["precond"] = pc


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Linear(8, 4).to(dev)
    opt = Shampoo(model.parameters())
    model(torch.randn(2, 8, device=dev)).sum().backward()
    opt.step()
    torch.save(opt.state_dict(), "shampoo.pt")
    opt.load_state_dict(torch.load("shampoo.pt", map_location="cpu", weights_only=False))
    model(torch.randn(2, 8, device=dev)).sum().backward()
    opt.step()
