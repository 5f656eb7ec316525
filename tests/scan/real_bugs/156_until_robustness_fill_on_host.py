# source: https://github.com/StanfordASL/stlcg/pull/5
# also: https://github.com/StanfordASL/stlcg/commit/a12d12c972b0a42622fede21ae13a4b5ca121c92
# kind: tensor_no_device_in_forward
# bug: the Until formula's robustness trace built its right-hand table with torch.ones(LHS.shape) * -LARGE on the CPU and then stacked it with the CUDA left-hand trace; the fix moves the table to the input's device.
# split: test5
import torch
import torch.nn as nn

BIG = 1e9


class SoftMin(nn.Module):
    def forward(self, x, scale=1.0, dim=-1):
        return -torch.logsumexp(-x * scale, dim=dim, keepdim=True) / scale


class SoftMax(nn.Module):
    def forward(self, x, scale=1.0, dim=-1):
        return torch.logsumexp(x * scale, dim=dim, keepdim=True) / scale


class UntilFormula(nn.Module):
    def __init__(self, left, right):
        super().__init__()
        self.left = left
        self.right = right
        self.smin = SoftMin()
        self.smax = SoftMax()

    def always(self, trace, scale):
        return self.smin(trace, scale=scale, dim=1).squeeze(1)

    def forward(self, inputs, scale=1.0):
        x, y = inputs
        tr1 = self.left(x)
        tr2 = self.right(y)
        T = tr2.shape[1]
        lhs = tr2.unsqueeze(-1).repeat([1, 1, 1, T]).permute(0, 3, 2, 1)
        rhs = torch.ones(lhs.shape) * -BIG  # bug: tensor_no_device_in_forward
        for i in range(T):
            rhs[:, i:, :, i] = self.always(tr1[:, i:, :], scale).unsqueeze(1)
        both = torch.stack([lhs, rhs], dim=-1)
        return self.smax(self.smin(both, scale=scale).squeeze(-1), scale=scale).squeeze(-1)
