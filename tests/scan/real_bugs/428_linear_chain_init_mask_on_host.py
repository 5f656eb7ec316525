# source: https://github.com/harvardnlp/pytorch-struct/pull/113
# kind: tensor_no_device_in_forward
# bug: the linear-chain CRF's log-partition built its identity "init" mask with torch.zeros(*chart.shape) and no device, so with CUDA potentials the mask was a CPU tensor used to fill a CUDA chart and the forward pass failed; the fix builds the mask with zeros_like(chart).
# split: test20
import math

import torch


class LogSemiring:
    zero = -1e9
    one = 0.0

    @staticmethod
    def fill(c, mask, v):
        return torch.where(mask, torch.full_like(c, v), c)

    @staticmethod
    def matmul(a, b):
        return torch.logsumexp(a.unsqueeze(-1) + b.unsqueeze(-3), dim=-2)


class LinearChain:
    def __init__(self):
        self.semiring = LogSemiring

    def logpartition(self, log_potentials, lengths=None):
        sr = self.semiring
        batch, n_1, C, _ = log_potentials.shape
        N = n_1 + 1
        if lengths is None:
            lengths = torch.full((batch,), N, dtype=torch.long, device=log_potentials.device)
        log_n = int(math.ceil(math.log2(max(N - 1, 1))))
        bin_n = 2 ** log_n
        chart = torch.full((batch, bin_n, C, C), sr.zero, dtype=log_potentials.dtype,
                           device=log_potentials.device)
        init = torch.zeros(*chart.shape).bool()  # bug: tensor_no_device_in_forward
        init.diagonal(0, 2, 3).fill_(True)
        chart = sr.fill(chart, init, sr.one)
        steps = torch.arange(bin_n, device=log_potentials.device).view(1, bin_n)
        valid = (steps < (lengths - 1).view(batch, 1)).view(batch, bin_n, 1, 1)
        padded = torch.full_like(chart, sr.zero)
        padded[:, : N - 1] = log_potentials
        chart = torch.where(valid, padded, chart)
        for _ in range(log_n):
            chart = sr.matmul(chart[:, 1::2], chart[:, 0::2])
        return torch.logsumexp(chart[:, 0].reshape(batch, -1), dim=-1)


class CRFTagger(torch.nn.Module):
    def __init__(self, dim=32, tags=5):
        super().__init__()
        self.proj = torch.nn.Linear(dim, tags * tags)
        self.tags = tags

    def forward(self, feats):
        b, n, _ = feats.shape
        pots = self.proj(feats[:, 1:]).view(b, n - 1, self.tags, self.tags)
        return LinearChain().logpartition(pots)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = CRFTagger().to(device)
    feats = torch.randn(4, 9, 32, device=device)
    print(model(feats))
