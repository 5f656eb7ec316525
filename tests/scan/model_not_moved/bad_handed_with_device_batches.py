# A model never moved, handed to a step function together with batches that were moved: the step
# function calls the model with them.
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 10)

    def forward(self, x):
        return F.log_softmax(self.fc(x.flatten(1)), dim=1)


def step(model, opt, x, y):
    opt.zero_grad()
    loss = F.nll_loss(model(x), y)
    loss.backward()
    opt.step()
    return loss.item()


def fit(loader):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Net()  # expect: code.model_not_moved
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        print(step(model, opt, x, y))
