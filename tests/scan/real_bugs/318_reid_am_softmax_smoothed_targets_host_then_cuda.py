# source: https://github.com/openvinotoolkit/deep-object-reid/commit/b31c4f5907e75425337e96b18dbe4bb00af18c03
# kind: per_step_host_alloc
# bug: on every training step the AM-softmax loss built its label-smoothed (and mix-augmented) one-hot targets with `torch.zeros(output.size())` on the host and only afterwards copied them with `.cuda()` when `use_gpu` was set, scattering the CUDA labels into a CPU tensor on the way; the fix ("fix devices in am_softmax") allocates the targets with `device=target.device` and drops the `.cuda()` copies.
# split: test14
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AMSoftmaxLoss(nn.Module):
    def __init__(self, use_gpu=True, margin=0.35, scale=30.0, label_smooth=True, epsilon=0.1):
        super().__init__()
        self.use_gpu = use_gpu
        self.m, self.s = margin, scale
        self.label_smooth, self.epsilon = label_smooth, epsilon
        self.cos_m, self.sin_m = math.cos(margin), math.sin(margin)

    def forward(self, cos_theta, target):
        one_hot = torch.zeros_like(cos_theta, dtype=torch.bool)
        one_hot.scatter_(1, target.view(-1, 1), True)
        output = torch.where(one_hot, cos_theta - self.m, cos_theta) * self.s

        if self.label_smooth:
            smoothed = torch.zeros(output.size()).scatter_(1, target.unsqueeze(1).data, 1)  # bug: per_step_host_alloc
            if self.use_gpu:
                smoothed = smoothed.cuda()
            num_classes = output.size(1)
            smoothed = (1.0 - self.epsilon) * smoothed + self.epsilon / float(num_classes)
            losses = (-smoothed * F.log_softmax(output, dim=1)).sum(dim=1)
        else:
            losses = F.cross_entropy(output, target, reduction="none")
        return losses.mean()


class CosineHead(nn.Module):
    def __init__(self, dim, num_classes):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_classes, dim))

    def forward(self, x):
        return F.linear(F.normalize(x), F.normalize(self.weight))


if __name__ == "__main__":
    backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 32, 256)).cuda()
    head = CosineHead(256, 751).cuda()
    criterion = AMSoftmaxLoss(use_gpu=True)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.01)
    for step in range(100):
        imgs = torch.randn(64, 3, 64, 32).cuda()
        pids = torch.randint(0, 751, (64,)).cuda()
        loss = criterion(head(backbone(imgs)), pids)
        opt.zero_grad()
        loss.backward()
        opt.step()
