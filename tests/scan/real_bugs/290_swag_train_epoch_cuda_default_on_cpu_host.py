# source: https://github.com/wjmaddox/swa_gaussian/pull/12
# also: https://github.com/wjmaddox/swa_gaussian/commit/21ada3da37977c62081186c441dcac5e74b70813
# kind: other
# bug: the SWAG training script picked `args.device` (CUDA only when available) and moved the model there, but called the shared `train_epoch` helper without its `cuda` flag, whose default `True` sent every batch through `.cuda()`, so training on a CPU-only machine failed; the merged fix passes `cuda=torch.cuda.is_available()`.
# split: test13
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def cross_entropy(model, x, y):
    out = model(x)
    return F.cross_entropy(out, y), out


def run_train_epoch(loader, model, criterion, optimizer, cuda=True, regression=False):
    loss_sum, correct, seen = 0.0, 0.0, 0
    model.train()
    for x, y in loader:
        if cuda:
            x = x.cuda(non_blocking=True)
            y = y.cuda(non_blocking=True)
        loss, out = criterion(model, x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss.item() * x.size(0)
        if not regression:
            correct += out.argmax(1).eq(y).sum().item()
        seen += x.size(0)
    return {"loss": loss_sum / seen, "accuracy": 100.0 * correct / seen}


parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--lr_init", type=float, default=0.05)
args = parser.parse_args()

if torch.cuda.is_available():
    args.device = torch.device("cuda")
else:
    args.device = torch.device("cpu")

data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 10, (512,)))
train_loader = DataLoader(data, batch_size=64, shuffle=True)
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
model.to(args.device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr_init, momentum=0.9)

for epoch in range(args.epochs):
    train_res = run_train_epoch(train_loader, model, cross_entropy, optimizer)  # bug: other
    print(epoch, train_res)
