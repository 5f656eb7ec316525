# The main model trains on the device the file chose; the baseline is handed a literal "cpu" and
# trains on the CPU even on a GPU machine.
import torch
from torch import nn


def fit(model, data, targets, device, epochs=5):
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data, targets = data.to(device), targets.to(device)
    for _ in range(epochs):
        loss = nn.functional.mse_loss(model(data), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def main(data, targets):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ours = fit(nn.Linear(8, 1), data, targets, device)
    baseline = fit(nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1)), data, targets, device="cpu")  # expect: code.hardcoded_cpu
    return ours, baseline
