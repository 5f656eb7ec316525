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


class EpochConfusionOnHost(torch.nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.head = torch.nn.Linear(32, num_classes)

    def validation_epoch_end(self, outputs):
        total = torch.zeros(self.num_classes, self.num_classes)
        for o in outputs:
            total += o["confusion"].cpu()  # brought to the host first
        return total.trace() / total.sum()


def collect_logits(loader):
    logits = torch.empty(0, device="cuda")
    kept = torch.empty(0)
    for x in loader:
        out = model(x.cuda())
        logits = torch.cat((logits, out))
        kept = torch.cat((kept, out.cpu()))  # brought to the host first
    return logits, kept
