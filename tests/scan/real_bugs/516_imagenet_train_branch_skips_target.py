# source: https://github.com/pytorch/examples/pull/1073
# kind: inputs_not_moved
# bug: after MPS support was added, the ImageNet example's train loop moved batches through an if/elif chain in which the --gpu branch moved only the images and the multi-GPU branch moved only the target, so with a single selected GPU the labels stayed on the CPU while the model, criterion and outputs were on CUDA and the loss crashed with a device mismatch (issue #1071); the fix passes the resolved device into train() and moves both images and target to it unconditionally.
# split: test24
import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def accuracy(output, target, topk=(1,)):
    maxk = max(topk)
    _, pred = output.topk(maxk, 1, True, True)
    correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
    return [correct[:k].reshape(-1).float().sum(0) * 100.0 / target.size(0) for k in topk]


def train(train_loader, model, criterion, optimizer, epoch, args):
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(train_loader):
        if args.gpu is not None and torch.cuda.is_available():
            images = images.cuda(args.gpu, non_blocking=True)  # bug: inputs_not_moved
        elif not args.gpu and torch.cuda.is_available():
            target = target.cuda(args.gpu, non_blocking=True)
        elif torch.backends.mps.is_available():
            images = images.to("mps")
            target = target.to("mps")

        output = model(images)
        loss = criterion(output, target)
        acc1, = accuracy(output, target, topk=(1,))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % 10 == 0:
            print(f"epoch {epoch} it {i} loss {loss.item():.3f} acc {acc1.item():.1f} t {time.time() - end:.2f}")
        end = time.time()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu", type=int, default=None)
    args = ap.parse_args()
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 100))
    if args.gpu is not None and torch.cuda.is_available():
        torch.cuda.set_device(args.gpu)
        model = model.cuda(args.gpu)
        device = torch.device(f"cuda:{args.gpu}")
    elif torch.cuda.is_available():
        model = nn.DataParallel(model).cuda()
        device = torch.device("cuda")
    else:
        device = torch.device("cpu")
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    data = TensorDataset(torch.randn(256, 3, 32, 32), torch.randint(0, 100, (256,)))
    loader = DataLoader(data, batch_size=32, pin_memory=True)
    for epoch in range(2):
        train(loader, model, criterion, optimizer, epoch, args)


if __name__ == "__main__":
    main()
