# source: https://github.com/BIGBALLON/distribuuuu/pull/13
# kind: cpu_accumulator
# bug: the distributed trainer fed its host-side AverageMeter objects the all-reduced top-1/top-k accuracy tensors directly, so the meters accumulated CUDA tensors (returned as the validation result and formatted for logging) instead of Python numbers, producing device errors; the fix stores .item() of each accuracy.
# split: test20
import time

import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self, name, fmt=":f"):
        self.name, self.fmt = name, fmt
        self.reset()

    def reset(self):
        self.val = self.avg = self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target.view(1, -1).expand(maxk, batch_size))
        return [correct[:k].reshape(-1).float().sum(0, keepdim=True).mul_(100.0 / batch_size) for k in topk]


def scaled_all_reduce(tensors, world_size=1):
    return [t / world_size for t in tensors]


def validate(val_loader, net, criterion, topk=5):
    losses, top1, topk_m = AverageMeter("Loss"), AverageMeter("Acc@1"), AverageMeter("Acc@k")
    net.eval()
    with torch.no_grad():
        end = time.time()
        for inputs, targets in val_loader:
            inputs, targets = inputs.cuda(), targets.cuda(non_blocking=True)
            outputs = net(inputs)
            loss = criterion(outputs, targets)
            acc_1, acc_k = accuracy(outputs, targets, topk=(1, topk))
            loss, acc_1, acc_k = scaled_all_reduce([loss, acc_1, acc_k])
            batch_size = inputs.size(0)
            losses.update(loss.item(), batch_size)
            top1.update(acc_1[0], batch_size)  # bug: cpu_accumulator
            topk_m.update(acc_k[0].item(), batch_size)
            end = time.time()
    return top1.avg, topk_m.avg


if __name__ == "__main__":
    net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 100)).cuda()
    loader = [(torch.randn(32, 3, 32, 32), torch.randint(0, 100, (32,))) for _ in range(5)]
    acc1, acck = validate(loader, net, nn.CrossEntropyLoss().cuda())
    print(f"Acc@1 {acc1:.3f} Acc@5 {acck:.3f}")
