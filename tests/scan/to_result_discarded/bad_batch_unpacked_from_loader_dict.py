import torch
from torch import nn


class Trainer:
    def __init__(self, model: nn.Module, device):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def fit(self, loaders, epochs=3):
        for _ in range(epochs):
            for step, batch in enumerate(loaders["train"]):
                inputs_cpu, targets_cpu = batch
                inputs_cpu.to(self.device)  # expect: code.to_result_discarded
                targets_cpu.to(self.device)  # expect: code.to_result_discarded
                loss = nn.functional.mse_loss(self.model(inputs_cpu), targets_cpu)  # expect: code.inputs_not_moved
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
