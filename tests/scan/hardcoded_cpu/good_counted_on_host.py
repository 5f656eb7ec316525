# Casting to a CPU tensor type inside an expression that ends on the host anyway (.item(), .cpu()):
# the count is read on the host, so the cast adds no copy of its own.
import torch
from torch import nn

device = torch.device("cuda")
model = nn.Linear(8, 1).to(device)


def accuracy(loader):
    correct = 0
    with torch.no_grad():
        for inputs, labels in loader:
            inputs, labels = inputs.to(device), labels.to(device)
            predicted = model(inputs).ge(0.5).view(-1)
            correct += (predicted.type(torch.FloatTensor).cpu() == labels.type(torch.FloatTensor)).sum().item()
    return correct
