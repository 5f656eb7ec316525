# source: https://github.com/zyushun/Adam-mini/pull/1
# kind: wrong_device_choice
# bug: the block-wise Adam optimizer created its per-head second-moment state and the per-step mean-square with hard-coded .cuda() calls, so the optimizer crashed on CPU or Apple-silicon runs whose parameters lived elsewhere; the fix sends these tensors to the selected device instead.
# split: test22
import math

import torch
from torch.optim.optimizer import Optimizer

device = "cuda" if torch.cuda.is_available() else "cpu"


class BlockAdam(Optimizer):
    def __init__(self, model, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, weight_decay=0.1, n_embd=256, n_head=4):
        self.n_embd = n_embd
        self.n_head = n_head
        groups = []
        for name, param in model.named_parameters():
            if not param.requires_grad:
                continue
            g = {"name": name, "params": param,
                 "weight_decay": 0.0 if "norm" in name else weight_decay}
            if "q_proj.weight" in name or "k_proj.weight" in name:
                g["per_head"] = n_embd * n_embd // n_head
            groups.append(g)
        super().__init__(groups, dict(lr=lr, beta1=beta1, beta2=beta2, eps=eps))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            b1, b2, lr, eps = group["beta1"], group["beta2"], group["lr"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "per_head" in group:
                    dim = group["per_head"]
                    if len(state) == 0:
                        state["m"] = torch.zeros_like(p).float().view(-1, dim)
                        state["heads"] = state["m"].shape[0]
                        state["t"] = 0
                        state["vmean"] = torch.zeros(state["heads"]).cuda()  # bug: wrong_device_choice
                    grad = p.grad.float().view(state["heads"], dim)
                    sq = torch.mean(grad * grad, dim=1).cuda()
                    state["vmean"].mul_(b2).add_(sq, alpha=1 - b2)
                    v = state["vmean"].unsqueeze(1)
                else:
                    if len(state) == 0:
                        state["m"] = torch.zeros_like(p).float()
                        state["v"] = torch.zeros_like(p).float()
                        state["t"] = 0
                    grad = p.grad.float()
                    state["v"].mul_(b2).addcmul_(grad, grad, value=1 - b2)
                    v = state["v"]
                state["t"] += 1
                if group["weight_decay"]:
                    p.mul_(1 - lr * group["weight_decay"])
                state["m"].lerp_(grad, 1 - b1)
                bc1 = 1 - b1 ** state["t"]
                bc2 = math.sqrt(1 - b2 ** state["t"])
                denom = (v.sqrt() / bc2).add_(eps)
                update = (state["m"] / denom).view_as(p)
                p.add_(update, alpha=-lr / bc1)


class TinyAttention(torch.nn.Module):
    def __init__(self, d=256):
        super().__init__()
        self.q_proj = torch.nn.Linear(d, d, bias=False)
        self.k_proj = torch.nn.Linear(d, d, bias=False)
        self.norm = torch.nn.LayerNorm(d)

    def forward(self, x):
        a = torch.softmax(self.q_proj(x) @ self.k_proj(x).transpose(-1, -2) / 16.0, dim=-1)
        return self.norm(a @ x)


if __name__ == "__main__":
    net = TinyAttention().to("mps" if torch.backends.mps.is_available() else device)
    opt = BlockAdam(net)
    x = torch.randn(2, 10, 256, device=next(net.parameters()).device)
    net(x).pow(2).mean().backward()
    opt.step()
