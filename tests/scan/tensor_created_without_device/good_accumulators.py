import torch
from torch import nn

model = nn.Linear(16, 3).cuda()


def evaluate(batches):
    totals = torch.zeros(3, device="cuda")
    count = 0.0
    for x in batches:
        totals += model(x.cuda()).sum(0)
        count += 1
    return totals / count


def rebuild(table, codes):
    out = torch.as_tensor(table)
    for i, c in enumerate(codes):
        out[i] = c.to(device=out.device)
    return out
