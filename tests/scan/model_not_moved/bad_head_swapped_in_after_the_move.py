# A fine-tuning script moves the backbone, then replaces its classifier with a new layer built on the
# CPU: the new head never moves.
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
    model.to(device)
    model.fc = nn.Linear(16, num_classes)  # expect: code.model_not_moved
    return model
