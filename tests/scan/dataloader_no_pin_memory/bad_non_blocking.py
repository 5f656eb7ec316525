import torch
from torch import nn
from torch.utils.data import DataLoader


def train(dataset, model, device):
    loader = DataLoader(dataset, batch_size=128, shuffle=True, num_workers=8)  # expect: code.dataloader_no_pin_memory
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        x = x.to(device, non_blocking=True)
        y = y.to(device, non_blocking=True)
        with torch.autocast("cuda"):
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
