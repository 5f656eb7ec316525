# source: https://github.com/es-ude/elastic-ai.creator/pull/328
# also: https://github.com/es-ude/elastic-ai.creator/commit/586b77458e9529dc8f12023fbefb6a3747fd222e
# kind: hardcoded_cpu
# bug: the precomputed (lookup-table) activation's step function began its forward with x = x.cpu(), so on a CUDA model every activation was copied to the host and the wrapped base module then received a CPU tensor; the fix ("do not copy input to cpu") drops the .cpu() call so the steps are computed on the input's device.
# split: test6
import torch
import torch.nn as nn


class IdentityStep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, step_lut):
        if len(step_lut) < 2:
            raise ValueError("need at least two steps")
        x = x.cpu().to(torch.float32)  # bug: hardcoded_cpu
        x = x.clamp(min=step_lut.min(), max=step_lut.max())
        for i in range(1, len(step_lut)):
            lo, hi = step_lut[i - 1], step_lut[i]
            x[(x > lo) & (x <= hi)] = hi
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class LookupActivation(nn.Module):
    def __init__(self, base, total_bits=8, frac_bits=4, num_steps=32, interval=(-4.0, 4.0)):
        super().__init__()
        self.base = base
        self.scale = 2 ** frac_bits
        self.limit = 2 ** (total_bits - 1)
        self.register_buffer("step_lut", torch.linspace(*interval, num_steps))

    def quantize(self, t):
        q = torch.round(t * self.scale).clamp(-self.limit, self.limit - 1)
        return q / self.scale

    def forward(self, x):
        stepped = self.quantize(IdentityStep.apply(x, self.step_lut))
        return self.quantize(self.base(stepped))


if __name__ == "__main__":
    act = LookupActivation(nn.Sigmoid()).cuda()
    net = nn.Sequential(nn.Linear(16, 16), act).cuda()
    print(net(torch.randn(4, 16, device="cuda")).device)
