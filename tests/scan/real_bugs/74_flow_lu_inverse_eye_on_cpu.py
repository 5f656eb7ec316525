# source: https://github.com/bayesiains/nflows/pull/38
# also: https://github.com/bayesiains/nflows/commit/5e864f5a58c829d1555ff644ba3f7daf9deabf27
# kind: tensor_no_device_in_forward
# bug: the LU linear transform built the identity for its triangular solve with torch.eye(n, n) on the CPU, so the inverse failed once the module was on a GPU; the fix passed the parameters' device.
# split: dev2
import torch
from torch import nn


class LUMixing(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.n = n
        self.lower = nn.Parameter(torch.zeros(n, n))
        self.upper = nn.Parameter(torch.eye(n) + 0.01 * torch.randn(n, n))
        self.bias = nn.Parameter(torch.zeros(n))

    def _factors(self):
        lo = torch.tril(self.lower, -1) + torch.eye(self.n, device=self.lower.device)
        return lo, torch.triu(self.upper)

    def forward(self, x):
        lo, up = self._factors()
        return x @ (lo @ up).T + self.bias

    def inverse(self, y):
        lo, up = self._factors()
        eye = torch.eye(self.n, self.n)  # bug: tensor_no_device_in_forward
        lo_inv = torch.linalg.solve_triangular(lo, eye, upper=False, unitriangular=True)
        w_inv = torch.linalg.solve_triangular(up, lo_inv, upper=True)
        return (y - self.bias) @ w_inv.T


if __name__ == "__main__":
    layer = LUMixing(4).to("cuda:0")
    print(layer.inverse(layer(torch.randn(5, 4, device="cuda:0"))).shape)
