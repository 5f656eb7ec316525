# The same trainer shape, where the model is moved: by the caller, or by the trainer itself.
import torch
from torch import nn

device = torch.device("cuda")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc(x)


class Trainer:
    def __init__(self, model: nn.Module, loader):
        self.model = model
        self.loader = loader

    def epoch(self):
        for x, y in self.loader:
            x, y = x.to(device), y.to(device)
            nn.functional.cross_entropy(self.model(x), y).backward()


class SelfMovingTrainer:
    def __init__(self, model, loader):
        self.model = model
        self.model.to(device)
        self.loader = loader

    def epoch(self):
        for x, y in self.loader:
            x = x.to(device)
            self.model(x)


Trainer(Net().to(device), loader=[]).epoch()
SelfMovingTrainer(Net(), loader=[]).epoch()
