# A shared epoch helper moves batches with .cuda() under a flag that defaults to True; the script
# picks the CPU when there is no GPU but calls the helper without the flag.
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


device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
net = nn.Linear(4, 1).to(device)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
data = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(10)]
run_epoch(data, net, opt)  # expect: code.cuda_ignores_device
