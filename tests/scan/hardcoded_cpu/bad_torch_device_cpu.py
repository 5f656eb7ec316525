import torch
from torch import nn

device = torch.device("cpu")  # expect: code.hardcoded_cpu
model = nn.Sequential(nn.Linear(10, 10), nn.ReLU()).to(device)


class Trainer:
    def __init__(self):
        self.device = "cpu"  # expect: code.hardcoded_cpu
        self.net = nn.Linear(4, 4)
        self.net.to(self.device)
