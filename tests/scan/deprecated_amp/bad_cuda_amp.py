import torch
from torch.cuda.amp import autocast

scaler = torch.cuda.amp.GradScaler()  # expect: code.deprecated_amp


def step(model, x, y, optimizer, loss_fn):
    with autocast():  # expect: code.deprecated_amp
        loss = loss_fn(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()


def eval_step(model, x):
    with torch.cuda.amp.autocast(dtype=torch.float16):  # expect: code.deprecated_amp
        return model(x)
