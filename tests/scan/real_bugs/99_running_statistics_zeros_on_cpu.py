# source: https://github.com/luigibonati/mlcolvar/pull/185
# also: https://github.com/luigibonati/mlcolvar/commit/438d36da877912ec50221333dd730952fc446c61
# kind: cpu_accumulator
# bug: the running-statistics helper (Welford mean/std over a dataloader) created its mean/M2/std accumulators with torch.zeros(nfeatures) on the CPU and then updated them in place with the batch means of CUDA inputs, failing with a device mismatch; the fix creates them with device=x.device.
# split: test2
import torch


class RunningStats:
    def __init__(self, x: torch.Tensor = None):
        self.count = 0
        self.mean = self.m2 = self.std = None
        self.lo = self.hi = None
        if x is not None:
            self.update(x)

    def update(self, x: torch.Tensor):
        if x.ndim == 1:
            x = x.unsqueeze(1)
        n, nfeat = x.shape
        total = self.count + n
        if self.mean is None:
            self.mean = torch.zeros(nfeat)  # bug: cpu_accumulator
            self.m2 = torch.zeros(nfeat)  # bug: cpu_accumulator
            self.std = torch.zeros(nfeat)
        batch_mean = x.mean(dim=0)
        batch_m2 = ((x - batch_mean) ** 2).sum(dim=0)
        delta = batch_mean - self.mean
        self.mean += delta * n / total
        self.m2 += batch_m2 + delta ** 2 * (n * self.count / total)
        self.count = total
        self.std = torch.sqrt(self.m2 / self.count)
        bmin, bmax = x.min(dim=0).values, x.max(dim=0).values
        self.lo = bmin if self.lo is None else torch.minimum(self.lo, bmin)
        self.hi = bmax if self.hi is None else torch.maximum(self.hi, bmax)


def feature_stats(loader, device="cuda"):
    stats = RunningStats()
    for batch in loader:
        stats.update(batch["data"].to(device))
    return stats.mean, stats.std
