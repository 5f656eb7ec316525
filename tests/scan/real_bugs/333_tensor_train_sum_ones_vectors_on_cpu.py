# source: https://github.com/rballester/tntorch/pull/1
# also: https://github.com/rballester/tntorch/commit/b12e435474cb1ace12020aa26e5a8bacc6b0ebb5
# kind: tensor_no_device_in_forward
# bug: the tensor-train library's `sum` contracted each summed mode with a vector of ones made by `torch.ones(n)` on the CPU, while the cores lived on the GPU, so summing (and `mean`, which calls it) crashed for CUDA tensors; the merged fix creates the ones vectors on the cores' device.
# split: test15
import numpy as np
import torch


class TTTensor:
    def __init__(self, cores):
        self.cores = cores

    @property
    def shape(self):
        return [c.shape[1] for c in self.cores]

    def dim(self):
        return len(self.cores)

    def to(self, device):
        return TTTensor([c.to(device) for c in self.cores])


def ttm(t, vectors, dims):
    cores = list(t.cores)
    for v, d in zip(vectors, dims):
        cores[d] = torch.einsum("iaj,a->ij", cores[d], v).unsqueeze(1)
    return TTTensor(cores)


def full(t):
    out = t.cores[0]
    for c in t.cores[1:]:
        out = torch.einsum("...i,ijk->...jk", out, c)
    return out.squeeze(0).squeeze(-1)


def tt_sum(t, dim=None, keepdim=False):
    if dim is None:
        dim = np.arange(t.dim())
    if not hasattr(dim, "__len__"):
        dim = [dim]
    us = [torch.ones(t.shape[d]) for d in dim]  # bug: tensor_no_device_in_forward
    result = ttm(t, us, dim)
    if keepdim:
        return result
    return full(result).squeeze()


def tt_mean(t, dim=None):
    denom = t.shape[dim] if dim is not None else float(np.prod(t.shape))
    return tt_sum(t, dim) / denom


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ranks = [1, 4, 4, 4, 1]
    cores = [torch.randn(ranks[i], 32, ranks[i + 1]) for i in range(4)]
    t = TTTensor(cores).to(device)
    print(tt_mean(t))
