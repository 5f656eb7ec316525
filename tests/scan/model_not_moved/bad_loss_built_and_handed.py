# A weighted loss built once and handed to a trainer class that moves the network and the batches,
# but not the loss: its class weights stay on the CPU.
import torch
from torch import nn


class Trainer:
    def __init__(self, net, criterion, device):
        self.device = device
        self.net = net.to(device)
        self.criterion = criterion
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def step(self, x, y):
        x, y = x.to(self.device), y.to(self.device)
        loss = self.criterion(self.net(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


def main(weights, batches):
    criterion = nn.CrossEntropyLoss(weight=weights)  # expect: code.model_not_moved
    trainer = Trainer(nn.Linear(8, 3), criterion, torch.device("cuda"))
    for x, y in batches:
        trainer.step(x, y)
