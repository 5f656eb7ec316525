# A baseline recommender that keeps its counts on the device it is given, but returns a fresh
# parameter made on the CPU as its dummy loss: the trainer meets it with device tensors.
import torch
from torch import nn


class PopularityBaseline(nn.Module):
    def __init__(self, n_items, device):
        super().__init__()
        self.counts = torch.zeros(n_items, dtype=torch.long, device=device)
        self.dummy = nn.Parameter(torch.zeros(1))

    def forward(self, items):
        return self.counts[items].float()

    def calculate_loss(self, items):
        self.counts[items] += 1
        return nn.Parameter(torch.zeros(1))  # expect: code.tensor_created_without_device
