import torch
from torch import nn


def train(model, loader, optimizer, device, epochs=10):
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        running = 0.0
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                logits = model(x)
                loss = criterion(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            running += loss.item()  # expect: code.sync_in_loop=info
            acc = (logits.argmax(1) == y).float().mean().cpu().numpy()  # expect: code.sync_in_loop=info
            torch.cuda.synchronize()  # expect: code.sync_in_loop=info
        print(epoch, running, acc)
