# Target statistics kept as plain attributes, from either branch of a conditional, and copied to
# the input's device in every forward.
import torch
from torch import nn


class ScaledHead(nn.Module):
    def __init__(self, mean=None, std=None):
        super().__init__()
        self.net = nn.Linear(8, 1)
        self.mean = torch.tensor(mean) if mean is not None else torch.zeros(1)  # expect: code.tensor_attribute_not_buffer
        self.std = torch.tensor(std) if std is not None else torch.ones(1)  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        self.mean = self.mean.to(x.device)
        self.std = self.std.to(x.device)
        return self.net(x) * self.std + self.mean


head = ScaledHead(0.5, 2.0).to("cuda")
