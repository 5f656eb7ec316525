import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda")
data = TensorDataset(torch.randn(1024, 784), torch.randint(0, 10, (1024,)))
loader = DataLoader(data, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
