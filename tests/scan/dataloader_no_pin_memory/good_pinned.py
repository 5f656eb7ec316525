import torch
from torch import nn
from torch.utils.data import DataLoader


def train(dataset, model, device):
    loader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=8, pin_memory=True)
    plain = DataLoader(dataset, batch_size=128, num_workers=2, pin_memory=True)
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with torch.autocast("cuda"):
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
    return plain
