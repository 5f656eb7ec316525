# source: https://github.com/romulus0914/NASBench-PyTorch/issues/3
# also: https://github.com/romulus0914/NASBench-PyTorch/commit/08860e3530eec68f0e07884b6c43a245a07a6ff5
# kind: cpu_accumulator
# bug: The trainer kept its running loss and correct-count as torch.tensor(0.0) on the CPU and added CUDA per-batch values into them in place, which failed with "expected device cpu but got device cuda:0"; the maintainers fixed the device mismatch (by copying each batch value to the CPU before adding).
# split: test
import torch
import torch.nn as nn


def fit(net, loader, epochs=1, lr=0.05, device="cuda"):
    net = net.to(device)
    opt = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    history = []
    for epoch in range(epochs):
        net.train()
        running = torch.tensor(0.0)
        hits = torch.tensor(0.0)
        seen = 0
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            opt.zero_grad()
            out = net(x)
            loss = crit(out, y)
            loss.backward()
            opt.step()
            running += loss.detach()  # bug: cpu_accumulator
            hits += (out.argmax(1) == y).sum()  # bug: cpu_accumulator
            seen += y.size(0)
        history.append((running.item() / len(loader), hits.item() / seen))
    return history
