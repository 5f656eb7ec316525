# source: https://github.com/lightly-ai/lightly/pull/1858
# also: https://github.com/lightly-ai/lightly/commit/aa7f1f34dfe9a43c9eda0dfc1c3b587e62e8f7a2
# kind: cpu_accumulator
# bug: the SwaV loss's forward started its total loss and each crop's sub-loss as `torch.tensor(0.0)` on the CPU and added the CUDA cross-entropy terms into them in place, so the loss failed when the prototypes' outputs were on the GPU (found when the loss tests were run on CUDA); the fix starts both with `outputs.new_zeros(1)` on the outputs' device.
# split: test12
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.no_grad()
def sinkhorn(scores, iterations=3, epsilon=0.05):
    q = torch.exp(scores / epsilon).t()
    q /= q.sum()
    k, b = q.shape
    for _ in range(iterations):
        q /= q.sum(dim=1, keepdim=True)
        q /= k
        q /= q.sum(dim=0, keepdim=True)
        q /= b
    return (q * b).t()


class SwappedPredictionLoss(nn.Module):
    def __init__(self, temperature=0.1, sinkhorn_iterations=3, sinkhorn_epsilon=0.05):
        super().__init__()
        self.temperature = temperature
        self.sinkhorn_iterations = sinkhorn_iterations
        self.sinkhorn_epsilon = sinkhorn_epsilon

    def subloss(self, z, q):
        return -torch.mean(torch.sum(q * F.log_softmax(z / self.temperature, dim=1), dim=1))

    def forward(self, high_res: List[torch.Tensor], low_res: List[torch.Tensor],
                queue: Optional[List[torch.Tensor]] = None):
        n_crops = len(high_res) + len(low_res)
        loss = torch.tensor(0.0)
        for i in range(len(high_res)):
            outputs = high_res[i].detach()
            if queue is not None:
                outputs = torch.cat((outputs, queue[i].detach()))
            q = sinkhorn(outputs, self.sinkhorn_iterations, self.sinkhorn_epsilon)
            if queue is not None:
                q = q[: len(high_res[i])]
            subloss = torch.tensor(0.0)  # bug: cpu_accumulator
            for v in range(len(high_res)):
                if v != i:
                    subloss += self.subloss(high_res[v], q)
            for v in range(len(low_res)):
                subloss += self.subloss(low_res[v], q)
            loss += subloss / (n_crops - 1)
        return loss / len(high_res)


if __name__ == "__main__":
    crit = SwappedPredictionLoss()
    highs = [torch.randn(32, 512, device="cuda") for _ in range(2)]
    lows = [torch.randn(32, 512, device="cuda") for _ in range(4)]
    print(crit(highs, lows))
