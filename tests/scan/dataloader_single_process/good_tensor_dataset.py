# Batches sliced from tensors already in memory: workers would only add start-up cost.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

x = torch.randn(1000, 8)
y = torch.randint(0, 2, (1000,))
dataset = TensorDataset(x, y)
loader = DataLoader(dataset, batch_size=64, shuffle=True)
model = nn.Linear(8, 2).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for xb, yb in loader:
    xb, yb = xb.cuda(), yb.cuda()
    loss = nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
