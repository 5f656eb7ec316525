# source: https://github.com/huggingface/pytorch-image-models/issues/2488
# also: https://github.com/huggingface/pytorch-image-models/commit/cabd26d018e29ee86c6ea6ae0c771ec8b9b5867e
# kind: other
# bug: the training script resolved the user's `--device` and moved the model there, but called `train_one_epoch(...)` without passing `device=`, so the function fell back to its `torch.device('cuda')` default and sent every batch to the default CUDA device regardless of the chosen one (e.g. another GPU index or a non-CUDA backend); the fix passes `device=device` at the call.
# split: test16
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_one_epoch(epoch, model, loader, optimizer, loss_fn, args, device=torch.device("cuda"), model_dtype=None):
    model.train()
    total, n = torch.zeros((), device=device), 0
    for input, target in loader:
        input, target = input.to(device=device, dtype=model_dtype), target.to(device=device)
        loss = loss_fn(model(input), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
        n += 1
    return {"loss": (total / max(n, 1)).item()}


def validate(model, loader, device=torch.device("cuda")):
    model.eval()
    correct = 0
    with torch.no_grad():
        for input, target in loader:
            input, target = input.to(device), target.to(device)
            correct += (model(input).argmax(-1) == target).sum().item()
    return correct


def main(train_loader, eval_loader):
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda", type=str)
    parser.add_argument("--epochs", default=300, type=int)
    args = parser.parse_args()
    device = torch.device(args.device)
    model = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 1000))
    model.to(device=device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    train_loss_fn = nn.CrossEntropyLoss().to(device=device)
    for epoch in range(args.epochs):
        train_one_epoch(epoch, model, train_loader, optimizer, train_loss_fn, args)  # bug: other
        validate(model, eval_loader, device=device)
