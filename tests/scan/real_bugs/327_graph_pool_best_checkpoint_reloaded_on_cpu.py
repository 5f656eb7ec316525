# source: https://github.com/inyeoplee77/SAGPool/issues/3
# also: https://github.com/inyeoplee77/SAGPool/commit/4988acddc9319681826fb03fe6141701e9714693
# kind: loaded_weights_not_moved
# bug: after early stopping, the graph-classification script rebuilt a fresh network and loaded the best saved state dict into it for the final test, but never moved the new network to `args.device`, while the test loop moved each batch to CUDA ("Expected object of backend CUDA but got backend CPU"); the fix appends `.to(args.device)` to the rebuilt network.
# split: test15
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphPoolNet(nn.Module):
    def __init__(self, num_features, nhid, num_classes):
        super().__init__()
        self.lin1 = nn.Linear(num_features, nhid)
        self.score = nn.Linear(nhid, 1)
        self.lin2 = nn.Linear(nhid, num_classes)

    def forward(self, x):
        h = F.relu(self.lin1(x))
        w = torch.softmax(self.score(h), dim=1)
        return F.log_softmax(self.lin2((w * h).sum(1)), dim=-1)


def evaluate(model, loader, device):
    model.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += model(x).argmax(1).eq(y).sum().item()
            total += y.numel()
    return correct / max(total, 1)


def main(train_loader, val_loader, test_loader, num_features, num_classes):
    parser = argparse.ArgumentParser()
    parser.add_argument("--nhid", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=200)
    args = parser.parse_args()
    args.device = "cuda:0" if torch.cuda.is_available() else "cpu"
    model = GraphPoolNet(num_features, args.nhid, num_classes).to(args.device)
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)
    best = 0.0
    for _ in range(args.epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(args.device), y.to(args.device)
            loss = F.nll_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = evaluate(model, val_loader, args.device)
        if acc > best:
            best = acc
            torch.save(model.state_dict(), "latest.pth")
    model = GraphPoolNet(num_features, args.nhid, num_classes)  # bug: loaded_weights_not_moved
    model.load_state_dict(torch.load("latest.pth"))
    print("test accuracy", evaluate(model, test_loader, args.device))
