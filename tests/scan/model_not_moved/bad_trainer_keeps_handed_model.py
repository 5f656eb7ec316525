# A trainer class keeps the model it is handed as it is and moves only the batches; the one place
# that builds it hands over a model that was never moved.
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
    def __init__(self, model: nn.Module, loader, lr=1e-3):
        self.model = model  # expect: code.model_not_moved
        self.loader = loader
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def epoch(self):
        for x, y in self.loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


Trainer(Net(), loader=[]).epoch()
