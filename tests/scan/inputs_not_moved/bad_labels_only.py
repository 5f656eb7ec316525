import torch
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    for step, (x, y) in enumerate(loader):
        x = x.to(device, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.float16):
            logits = model(x)
            loss = F.cross_entropy(logits, y)  # expect: code.inputs_not_moved
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
