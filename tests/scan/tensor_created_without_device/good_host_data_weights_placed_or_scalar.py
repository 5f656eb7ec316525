import torch
from torch import nn


class WeightedQuantileLoss(nn.Module):
    def __init__(self, quantiles=(0.1, 0.5, 0.9)):
        super().__init__()
        self.register_buffer("quantiles", torch.tensor(list(quantiles)))
        self.base = nn.L1Loss(reduction="none")

    def forward(self, pred, target):
        per_element = self.base(pred, target.expand_as(pred))
        weights = self.quantiles.view(1, -1) * per_element
        bias = per_element + torch.tensor([0.0, 0.1, 0.0], device=per_element.device)
        scale = torch.tensor(2.0) * per_element  # a 0-dim CPU tensor mixes with CUDA tensors
        return (weights + bias + scale).mean()


model = nn.Linear(8, 3).to("cuda")
loss_fn = WeightedQuantileLoss()
