# Dropout registered once, or the functional form told whether the module is training.
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, p=0.1):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.drop = nn.Dropout(p)
        self.p = p

    def forward(self, x):
        return self.drop(self.fc(x)) + F.dropout(x, self.p, training=self.training)
