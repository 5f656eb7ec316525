import torch
from torch import nn


class WeightedQuantileLoss(nn.Module):
    def __init__(self, quantiles=(0.1, 0.5, 0.9)):
        super().__init__()
        self.quantiles = list(quantiles)
        self.base = nn.L1Loss(reduction="none")

    def forward(self, pred, target):
        per_element = self.base(pred, target.expand_as(pred))
        weights = torch.tensor(self.quantiles).view(1, -1) * per_element  # expect: code.tensor_created_without_device
        bias = per_element + torch.tensor([0.0, 0.1, 0.0])  # expect: code.tensor_created_without_device
        return (weights + bias).mean()


model = nn.Linear(8, 3).to("cuda")
loss_fn = WeightedQuantileLoss()
