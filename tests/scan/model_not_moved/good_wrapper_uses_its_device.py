import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(x)


class Benchmark:
    def __init__(self, device="cpu", batch_size=64):
        self.device = device
        self.model = Net().to(self.device)
        self.example = torch.randn(batch_size, 32, device=self.device)

    def run(self, iterations=10):
        with torch.no_grad():
            for _ in range(iterations):
                self.model(self.example)


if __name__ == "__main__":
    Benchmark(device="cuda").run()
