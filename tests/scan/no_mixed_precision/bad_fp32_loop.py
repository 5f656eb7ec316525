import torch
from torch import nn
from torch.utils.data import DataLoader


def main(dataset):
    device = torch.device("cuda")
    model = nn.TransformerEncoder(nn.TransformerEncoderLayer(512, 8, batch_first=True), 6).to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    loader = DataLoader(dataset, batch_size=32, num_workers=4, pin_memory=True)
    for epoch in range(5):
        for x in loader:  # expect: code.no_mixed_precision
            x = x.to(device, non_blocking=True)
            loss = model(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
