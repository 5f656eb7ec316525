# source: https://github.com/numenta/nupic.research/pull/249
# kind: cpu_accumulator
# bug: the shared evaluate_model helper kept its running loss and correct-count as Python numbers and added criterion(...).item() and pred.eq(...).sum().item() for every batch, forcing a GPU->host copy and synchronisation per batch and stalling evaluation; the fix keeps the accumulators as tensors on the evaluation device and calls .item() once after the loop.
# split: test24
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def evaluate_model(model, loader, device, batches_in_epoch=sys.maxsize,
                   criterion=F.nll_loss, post_batch_callback=None):
    model.eval()
    loss = 0.0
    correct = torch.tensor(0, device=device)
    total = 0
    non_blocking = loader.pin_memory

    with torch.no_grad():
        for batch_idx, (data, target) in enumerate(loader):
            if batch_idx >= batches_in_epoch:
                break
            data = data.to(device, non_blocking=non_blocking)
            target = target.to(device, non_blocking=non_blocking)

            output = model(data)
            loss += criterion(output, target, reduction="sum").item()  # bug: cpu_accumulator
            pred = output.max(1, keepdim=True)[1]
            correct += pred.eq(target.view_as(pred)).sum()
            total += len(data)

            if post_batch_callback is not None:
                post_batch_callback(batch_idx=batch_idx, target=target, output=output, pred=pred)

    correct = correct.item()
    return {
        "total_correct": correct,
        "mean_loss": loss / total if total > 0 else 0,
        "mean_accuracy": correct / total if total > 0 else 0,
    }


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        return F.log_softmax(self.fc2(F.relu(self.fc1(x.flatten(1)))), dim=1)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = TensorDataset(torch.randn(512, 1, 28, 28), torch.randint(0, 10, (512,)))
    loader = DataLoader(ds, batch_size=64, pin_memory=torch.cuda.is_available())
    print(evaluate_model(SmallNet().to(dev), loader, dev))
