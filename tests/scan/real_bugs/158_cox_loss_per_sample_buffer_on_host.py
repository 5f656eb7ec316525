# source: https://github.com/owkin/FLamby/pull/244
# also: https://github.com/owkin/FLamby/commit/cc3ab3427a13f71283a5540720e7915be618190b
# kind: cpu_accumulator
# bug: the survival benchmark's Cox loss allocated its per-sample loss vector with torch.zeros(n) on the CPU and filled it in a Python loop with values computed from the CUDA model scores; the fix creates the vector on the scores' device and dtype.
# split: test5
import torch
import torch.nn as nn


class CoxPartialLikelihood(nn.Module):
    def forward(self, scores, truth):
        rows = torch.stack((scores.squeeze(1), truth[:, 0], truth[:, 1]), dim=1)
        rows = torch.stack(sorted(rows, key=lambda r: -r[2]))
        risk = rows[:, 0]
        events = rows[:, 1]
        per_sample = torch.zeros(risk.size(0))
        for i in range(1, risk.size(0)):
            diff = risk[: i + 1] - risk[i]
            top = diff.max()
            per_sample[i] = top + torch.log((diff - top).exp().sum(0))  # bug: cpu_accumulator
        per_sample = per_sample * events
        return per_sample.mean()


def local_update(model, loader, device, lr=1e-3, steps=10):
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    criterion = CoxPartialLikelihood()
    for step, (x, y) in enumerate(loader):
        if step >= steps:
            break
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model
