"""Train a small MLP on MNIST-shaped data."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))

    def forward(self, x):
        return self.body(x.flatten(1))


def main():
    data = TensorDataset(torch.randn(1024, 1, 28, 28), torch.randint(0, 10, (1024,)))
    loader = DataLoader(data, batch_size=64, shuffle=True, num_workers=4)
    model = Net()  # expect: code.no_device_placement
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(3):
        for x, y in loader:
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
