# The head replaced before the move, or the model moved again after the swap.
import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, 1000)

    def forward(self, x):
        return self.fc(self.features(x))


def build(num_classes, device):
    model = Backbone()
    model.fc = nn.Linear(16, num_classes)
    return model.to(device)


def rebuild(model, num_classes, device):
    model = Backbone().to(device)
    model.fc = nn.Linear(16, num_classes)
    model.to(device)
    return model
