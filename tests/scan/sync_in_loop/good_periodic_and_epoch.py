import torch
from torch import nn


def train(model, loader, val_loader, optimizer, device, epochs=10):
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        total = torch.zeros((), device=device)
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = criterion(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            total += loss.detach()
            if step % 100 == 0:
                print(f"step {step}: {loss.item():.4f}")
        print(f"epoch {epoch}: {total.item() / len(loader):.4f}")  # once per epoch
        correct = 0
        with torch.no_grad():
            for x, y in val_loader:  # evaluation: no backward(), not a training step
                correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()


def profile_steps(model, loader, optimizer, device):
    import time
    times = []
    for x, y in loader:
        start = time.perf_counter()
        loss = model(x.to(device)).sum()
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()  # timing a step needs the sync
        times.append(time.perf_counter() - start)
    return times
