import torch
from torch import nn

model = nn.Linear(16, 3).cuda()


def evaluate(batches):
    totals = torch.zeros(3)  # expect: code.tensor_created_without_device
    for x in batches:
        totals += model(x.cuda()).sum(0)
    return totals


class Pool(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(16, 16)

    def forward(self, x):
        stats = torch.zeros(2, 16)  # expect: code.tensor_created_without_device
        stats[0] = self.proj(x).mean(0)
        return stats


class EpochConfusion(torch.nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.head = torch.nn.Linear(32, num_classes)

    def validation_epoch_end(self, outputs):
        total = torch.zeros(self.num_classes, self.num_classes)  # expect: code.tensor_created_without_device
        for o in outputs:
            total += o["confusion"]
        return total.trace() / total.sum()


def collect_logits(loader):
    logits = torch.empty(0)  # expect: code.tensor_created_without_device
    for x in loader:
        out = model(x.cuda())
        logits = torch.cat((logits, out))
    return logits
