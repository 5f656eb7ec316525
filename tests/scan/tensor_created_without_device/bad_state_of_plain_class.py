# State of a plain class (running statistics, a history) made on the host and grown, at each call,
# with tensors its methods are given.
import torch


class Tracker:
    def __init__(self, device):
        self.device = device
        self.clear()

    def clear(self):
        self.seen = torch.tensor([])  # expect: code.tensor_created_without_device

    def add(self, losses, baseline):
        gap = (losses - baseline).detach()
        self.seen = torch.cat([self.seen, gap])


class Moments:
    def __init__(self):
        self.n = 0
        self.total = None

    def update(self, x):
        if self.total is None:
            self.total = torch.zeros(x.shape[1])  # expect: code.tensor_created_without_device
        self.total += x.sum(0)
        self.n += x.shape[0]


def fit(loader, device="cuda"):
    m = Moments()
    for batch in loader:
        m.update(batch.to(device))
    return m.total / m.n
