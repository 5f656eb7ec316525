# A detector whose class keeps the device it was given, but whose predict() sends its batches to
# "cuda"; and a batch loader that takes a device and still sends x to "cuda" (the current GPU) while
# y goes to the chosen one: with device="cuda:1" the two meet on different GPUs.
import torch
from torch import nn


class Detector:
    def __init__(self, net: nn.Module, device="cuda"):
        self.device = device
        self.net = net.to(self.device)

    def fit(self, loader):
        for x in loader:
            self.net(x.float().to(self.device)).mean().backward()

    def predict(self, loader):
        scores = []
        with torch.no_grad():
            for x in loader:
                x = x.float().to("cuda")  # expect: code.cuda_ignores_device
                scores.append(self.net(x).cpu())
        return torch.cat(scores)


def get_batch(data, batch_size, block, device):
    ix = torch.randint(len(data) - block, (batch_size,))
    x = torch.stack([data[i : i + block] for i in ix])
    y = torch.stack([data[i + 1 : i + 1 + block] for i in ix])
    if "cuda" in device:
        x = x.pin_memory().to("cuda", non_blocking=True)  # expect: code.cuda_ignores_device
        y = y.pin_memory().to(device, non_blocking=True)
    return x, y


def one_hot_table(depth, device):
    return torch.eye(depth).cuda()  # expect: code.cuda_ignores_device
