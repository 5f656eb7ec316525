# source: https://github.com/wbawakate/fairtorch/pull/23
# also: https://github.com/wbawakate/fairtorch/commit/5bbd1b43838fe7d271505ce987c5d304aef35a7f
# kind: attribute_not_buffer
# bug: the fairness-constraint loss kept its constraint matrix M and offset c as plain tensor attributes, so moving the loss module to CUDA left them on the CPU and torch.mv(M, mu) failed against the CUDA group means; the fix moved M, mu and c to a device chosen in __init__ inside forward.
# split: test2
import torch
import torch.nn.functional as F
from torch import nn


class ParityPenalty(nn.Module):
    def __init__(self, groups=(0, 1), weight: float = 1.0):
        super().__init__()
        self.groups = list(groups)
        self.weight = weight
        n = len(self.groups)
        self.M = torch.zeros(2 * n, n + 1)  # bug: attribute_not_buffer
        for i in range(2 * n):
            g = i // 2
            sign = 1.0 if i % 2 == 0 else -1.0
            self.M[i, g] = sign
            self.M[i, -1] = -sign
        self.c = torch.zeros(2 * n)  # bug: attribute_not_buffer

    def group_means(self, prob, attr):
        means = [prob[attr == g].mean() for g in self.groups]
        means.append(prob.mean())
        return torch.stack(means)

    def forward(self, logits, attr):
        prob = torch.sigmoid(logits.view(-1))
        mu = self.group_means(prob, attr.view(-1))
        gap = F.relu(torch.mv(self.M, mu) - self.c)
        return self.weight * torch.dot(gap, gap)


if __name__ == "__main__":
    net = nn.Linear(8, 1).cuda()
    penalty = ParityPenalty().cuda()
    x = torch.randn(32, 8, device="cuda")
    a = torch.randint(0, 2, (32,), device="cuda")
    print(penalty(net(x), a))
