# source: https://github.com/AI4Finance-Foundation/RLSolver/pull/87
# also: https://github.com/AI4Finance-Foundation/RLSolver/commit/09e6cd3ebd36e1b2987142131e6fbf2a942a08f0
# kind: inputs_not_moved
# bug: the learned MaxCut optimiser keeps its relaxed node variables on the GPU, but the random test graph was assembled from `torch.ones`/`torch.rand` on the CPU and the objective stored that adjacency matrix as given, so the loss multiplied CUDA variables with a CPU matrix; the merged fix moves the adjacency matrix to the device in the objective's constructor.
# split: test15
import torch as th
import torch.nn as nn


def random_graph(n, sparsity=0.5, device="cpu"):
    adj = th.zeros(n, n, device=device)
    upper = th.mul(th.ones(n, n).triu(diagonal=1), (th.rand(n, n) < sparsity).int().triu(diagonal=1))
    adj = upper + upper.transpose(-1, -2)
    return adj


class MaxCutObjective:
    def __init__(self, adjacency_matrix, **kwargs):
        self.adjacency_matrix = adjacency_matrix  # bug: inputs_not_moved
        self.N = adjacency_matrix.shape[0]

    def get_loss(self, x):
        x = x.sigmoid()
        cut = th.mul(th.matmul(x.reshape(self.N, 1), (1 - x.reshape(self.N, 1)).transpose(-1, -2)),
                     self.adjacency_matrix)
        return -cut.flatten().sum(dim=-1)


class RelaxedAssignment(nn.Module):
    def __init__(self, n, device):
        super().__init__()
        self.theta = nn.Parameter(th.rand(n, device=device))


def solve(n=800, steps=500, device=th.device("cuda" if th.cuda.is_available() else "cpu")):
    graph = random_graph(n, device=device)
    objective = MaxCutObjective(graph)
    var = RelaxedAssignment(n, device)
    opt = th.optim.Adam(var.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = objective.get_loss(var.theta)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return (var.theta > 0).long()
