# source: https://github.com/rballester/tntorch/pull/19
# kind: inputs_not_moved
# bug: the tensor-train mask() helper rebuilt the mask from the mask tensor's cores exactly as given, and the logic helpers that build masks create their cores with torch.ones on the CPU, so masking a tensor-train whose cores live on the GPU multiplied CUDA and CPU cores and crashed; the fix moves every mask core to the masked tensor's device.
# split: test22
from typing import List, Optional

import numpy as np
import torch


class TTensor:
    def __init__(self, cores: List[torch.Tensor], Us: Optional[List[Optional[torch.Tensor]]] = None, idxs=None):
        self.cores = cores
        self.Us = Us if Us is not None else [None] * len(cores)
        if idxs is not None:
            self.idxs = idxs

    @property
    def shape(self):
        return [c.shape[1] if U is None else U.shape[0] for c, U in zip(self.cores, self.Us)]

    def dim(self):
        return len(self.cores)

    def full_core(self, n):
        c = self.cores[n]
        if self.Us[n] is not None:
            c = torch.einsum("ijk,aj->iak", c, self.Us[n])
        return c

    def __mul__(self, other: "TTensor") -> "TTensor":
        cores = []
        for n in range(self.dim()):
            a, b = self.full_core(n), other.full_core(n)
            c = torch.einsum("iaj,kal->ikajl", a, b)
            cores.append(c.reshape(a.shape[0] * b.shape[0], a.shape[1], a.shape[2] * b.shape[2]))
        return TTensor(cores)

    def cuda(self):
        return TTensor([c.cuda() for c in self.cores], [None if U is None else U.cuda() for U in self.Us])


def presence(N: int, which: List[int]) -> TTensor:
    cores = [torch.ones([1, 2, 1]) for _ in range(N)]
    for w in which:
        cores[w][0, 0, 0] = 0
    return TTensor(cores)


def mask(t: TTensor, m: TTensor) -> TTensor:
    idxs = t.idxs if hasattr(t, "idxs") else [np.arange(sh) for sh in t.shape]
    cores, Us = [], []
    for n in range(t.dim()):
        idx = np.array(idxs[n])
        idx[idx >= m.shape[n]] = m.shape[n] - 1
        if m.Us[n] is None:
            cores.append(m.cores[n][..., idx, :])  # bug: inputs_not_moved
            Us.append(None)
        else:
            cores.append(m.cores[n])
            Us.append(m.Us[n][idx, :])
    m = TTensor(cores, Us)
    return t * m


def random_tt(shape, rank=3, device="cpu"):
    ranks = [1] + [rank] * (len(shape) - 1) + [1]
    return TTensor([torch.randn(ranks[i], s, ranks[i + 1], device=device) for i, s in enumerate(shape)])


if __name__ == "__main__":
    t = random_tt([2] * 6, device="cuda")
    t.idxs = [np.arange(2)] * 6
    only_vars_0_3 = presence(6, [0, 3])
    masked = mask(t, only_vars_0_3)
    print([c.shape for c in masked.cores])
