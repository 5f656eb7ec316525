import torch
from torch.amp import autocast

scaler = torch.amp.GradScaler("cuda")


def step(model, x, y, optimizer, loss_fn):
    with autocast("cuda", dtype=torch.bfloat16):
        loss = loss_fn(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    torch.cuda.amp_note = "attribute names that merely start with amp are not the amp module"
