# source: https://github.com/kozistr/pytorch_optimizer/pull/132
# also: https://github.com/kozistr/pytorch_optimizer/issues/131
# also: https://github.com/kozistr/pytorch_optimizer/commit/be0351d0a99b1572a85328883765065e28f42905
# kind: cpu_accumulator
# bug: on its first step the SM3 optimizer created its per-dimension second-moment accumulators with torch.zeros(shape) and no device (AdaFactor's row/column statistics likewise), so for parameters on CUDA the accumulators lived on the CPU and the update that combined them with the CUDA gradient failed; the fix creates them with dtype=grad.dtype, device=grad.device (or zeros_like(p)).
# split: test7
import torch
from torch.optim import Optimizer


class SM3(Optimizer):
    def __init__(self, params, lr=1e-1, momentum=0.0, beta=0.0, eps=1e-30):
        super().__init__(params, dict(lr=lr, momentum=momentum, beta=beta, eps=eps))

    @staticmethod
    def max_reduce_except_dim(x, dim):
        for d in range(x.dim()):
            if d != dim:
                x = x.max(dim=d, keepdim=True).values
        return x

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            beta, eps = group["beta"], group["eps"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                shape, rank = grad.shape, grad.dim()
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["momentum_buffer"] = torch.zeros_like(p)
                    for i in range(rank):
                        acc_shape = [1] * i + [shape[i]] + [1] * (rank - 1 - i)
                        state[f"accumulator_{i}"] = torch.zeros(acc_shape)  # bug: cpu_accumulator
                state["step"] += 1

                update = state["accumulator_0"].clone()
                for i in range(1, rank):
                    update = torch.min(update, state[f"accumulator_{i}"])
                if beta > 0.0:
                    update.mul_(beta)
                update.addcmul_(grad, grad, value=1.0 - beta)
                for i in range(rank):
                    acc = state[f"accumulator_{i}"]
                    torch.max(acc, self.max_reduce_except_dim(update, i), out=acc)
                update.add_(eps).rsqrt_().mul_(grad)
                p.add_(update, alpha=-group["lr"])


if __name__ == "__main__":
    model = torch.nn.Linear(64, 8).cuda()
    opt = SM3(model.parameters())
    model(torch.randn(16, 64, device="cuda")).pow(2).mean().backward()
    opt.step()
