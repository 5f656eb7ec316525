# A torchmetrics Metric is a module too: a tensor attribute stays on the CPU when the metric moves.
# And normalisation statistics read from a JSON file are vectors, not numbers.
import json

import torch
from torchmetrics import Metric


class CenteredError(Metric):
    def __init__(self, means):
        super().__init__()
        self.means = torch.as_tensor(means, dtype=torch.float32)  # expect: code.tensor_attribute_not_buffer
        self.add_state("total", default=torch.tensor(0.0), dist_reduce_fx="sum")

    def update(self, preds, target):
        self.total += ((preds - self.means) - (target - self.means)).abs().sum()

    def compute(self):
        return self.total


class StatsNorm(torch.nn.Module):
    def __init__(self, path):
        super().__init__()
        with open(path) as f:
            stats = json.load(f)
        self.mean = torch.tensor(stats["mean"])  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        return x - self.mean


metric = CenteredError([0.1, 0.2]).to("cuda")
norm = StatsNorm("stats.json").cuda()
