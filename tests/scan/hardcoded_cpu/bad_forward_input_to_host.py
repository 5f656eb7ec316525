import torch
from torch import nn


class StepQuantizer(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, steps):
        x = x.cpu().to(torch.float32)  # expect: code.hardcoded_cpu
        return x.clamp(min=steps.min(), max=steps.max())

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class QuantizedHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 10)
        self.register_buffer("steps", torch.linspace(-4.0, 4.0, 32))

    def forward(self, feats):
        feats = feats.detach().cpu()  # expect: code.hardcoded_cpu
        return self.proj(StepQuantizer.apply(feats, self.steps))


model = QuantizedHead().cuda()
