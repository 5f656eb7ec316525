# source: https://github.com/torchcvnn/torchcvnn/issues/100
# also: https://github.com/torchcvnn/torchcvnn/commit/390f8215952e0ea1daaef6919fe8788198368a13
# kind: per_step_host_alloc
# bug: the complex-valued Dropout/Dropout2d layers built their mask from torch.ones(z.shape) on the host and copied it with .to(z.device) on every forward, pegging the CPU and slowing GPU training; the fix allocates the ones directly on z.device.
# split: test4
import torch
import torch.nn as nn
import torch.nn.functional as F


class ComplexDropout(nn.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, z):
        mask = F.dropout(torch.ones(z.shape), self.p, training=self.training).to(z.device)  # bug: per_step_host_alloc
        return mask * z


class ComplexDropout2d(nn.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, z):
        mask = F.dropout2d(torch.ones(z.shape, device=z.device), self.p, training=self.training)
        return mask * z


class ComplexMLP(nn.Module):
    def __init__(self, dim, hidden, p=0.1):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden, dtype=torch.complex64)
        self.fc2 = nn.Linear(hidden, dim, dtype=torch.complex64)
        self.drop = ComplexDropout(p)

    def forward(self, z):
        h = self.fc1(z)
        h = torch.polar(F.relu(h.abs()), h.angle())
        return self.fc2(self.drop(h))
