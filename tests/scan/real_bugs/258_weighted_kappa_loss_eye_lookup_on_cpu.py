# source: https://github.com/ayrna/dlordinal/pull/100
# also: https://github.com/ayrna/dlordinal/commit/ed52afdd59304e679e8d68095be4b8bc498d1a67
# kind: tensor_no_device_in_forward
# bug: the weighted-kappa ordinal loss converted integer labels to one-hot inside `forward` by indexing a fresh `torch.eye(num_classes)` (CPU) with the CUDA label tensor, and built its penalty matrix with `torch.Tensor(list(range(num_classes)))` on the CPU too, so training a CUDA model with this loss failed with a device mismatch; the fix moves the identity, the penalty matrix and the class weights to the labels'/predictions' device.
# split: test11
from typing import Optional

import torch
import torch.nn as nn


class WeightedKappaLoss(nn.Module):
    def __init__(self, num_classes: int, penalization: str = "quadratic",
                 weight: Optional[torch.Tensor] = None, epsilon: float = 1e-10):
        super().__init__()
        self.num_classes = num_classes
        self.power = 2 if penalization == "quadratic" else 1
        self.weight = weight
        self.epsilon = epsilon

    def forward(self, y_pred, y_true):
        k = self.num_classes
        if y_true.dim() == 1:
            y_true = torch.eye(k)[y_true]  # bug: tensor_no_device_in_forward
        y_true = y_true.float()

        ranks = torch.arange(k, dtype=torch.float32, device=y_pred.device).unsqueeze(1).repeat(1, k)
        weights = (ranks - ranks.T) ** 2 / (k - 1) ** 2
        if self.weight is not None:
            weights = weights * self.weight.to(y_pred.device).repeat(k, 1)

        pred = y_pred ** self.power
        pred = pred / (self.epsilon + pred.sum(dim=1, keepdim=True))
        conf = pred.T @ y_true
        expected = pred.sum(0).view(k, 1) @ y_true.sum(0).view(1, k)
        num = (weights * conf).sum()
        den = (weights * expected / y_pred.size(0)).sum()
        return num / (den + self.epsilon)


def train_epoch(model, loader, optimizer, num_classes):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    criterion = WeightedKappaLoss(num_classes)
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        probs = torch.softmax(model(images), dim=1)
        loss = criterion(probs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
