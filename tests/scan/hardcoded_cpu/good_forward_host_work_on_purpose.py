import numpy as np
import torch
from torch import nn


class Histogram(nn.Module):
    def forward(self, x):
        x = x.cpu()  # NumPy work follows: the host copy is the point
        counts, _ = np.histogram(x.numpy(), bins=16)
        return torch.from_numpy(counts)


class RoundTrip(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        device = x.device
        x = x.cpu()
        x = torch.sort(x, dim=-1).values
        x = x.to(device)  # moved back: a round trip written on purpose
        return self.fc(x)

    def predict(self, x):
        x = x.cpu()  # not forward(): a method that hands results to the host
        return x


model = Histogram().cuda()
