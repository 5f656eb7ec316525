# The chosen device used everywhere; .cuda() under a test of CUDA itself, .cuda(rank) with an index,
# and .cuda() in code that chooses no device.
import torch
from torch import nn


class Detector:
    def __init__(self, net: nn.Module, device="cuda"):
        self.device = device
        self.net = net.to(self.device)

    def predict(self, loader):
        with torch.no_grad():
            return torch.cat([self.net(x.float().to(self.device)).cpu() for x in loader])


def get_batch(data, batch_size, block, device):
    ix = torch.randint(len(data) - block, (batch_size,))
    x = torch.stack([data[i : i + block] for i in ix])
    if torch.cuda.is_available():
        x = x.pin_memory().cuda(non_blocking=True)
    return x.to(device)


def worker(rank, model, batch):
    model = model.cuda(rank)
    return model(batch.cuda(rank))


def build():
    return nn.Linear(4, 4).cuda()
