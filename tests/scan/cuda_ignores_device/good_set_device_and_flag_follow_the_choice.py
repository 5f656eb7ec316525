# The same code following the device it chose: set_device only for a CUDA device, and the helper's
# flag passed on.
import torch
from torch import nn


def run_epoch(batches, model, optimizer, cuda=True):
    for x, y in batches:
        if cuda:
            x, y = x.cuda(), y.cuda()
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train(gpu_id, epochs):
    device = torch.device(f"cuda:{gpu_id}" if torch.cuda.is_available() else "cpu")
    if device.type == "cuda":
        torch.cuda.set_device(device)
    model = nn.Linear(4, 1).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]
    for _ in range(epochs):
        run_epoch(data, model, opt, cuda=device.type == "cuda")
