# A metric synchronised across ranks through a tensor made on the CPU: NCCL rejects it.
import torch
import torch.distributed as dist


class Average:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def sync(self):
        t = torch.tensor([self.total, self.count], dtype=torch.float64)  # expect: code.tensor_created_without_device
        dist.all_reduce(t)
        self.total, self.count = t.tolist()


def evaluate(model, loader):
    avg = Average()
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        avg.total += (model(x).argmax(1) == y).sum().item()
        avg.count += len(y)
    avg.sync()
    return avg.total / avg.count
