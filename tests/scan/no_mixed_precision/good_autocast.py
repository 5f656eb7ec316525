import torch
from torch import nn


def main(loader):
    model = nn.Linear(512, 512).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scaler = torch.amp.GradScaler("cuda")
    for x in loader:
        x = x.cuda(non_blocking=True)
        with torch.autocast(device_type="cuda", dtype=torch.float16):
            loss = model(x).pow(2).mean()
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
