# source: https://github.com/cvpr-vand/challenge/pull/4
# also: https://github.com/cvpr-vand/challenge/commit/a4f40f179b8712b5cdf2bcd031294ea50dd006b3
# kind: eval_batch_not_moved
# bug: The challenge's evaluation loop sent only the images to the device, and the ground-truth labels/masks handed to the on-device metric stayed on the CPU; the fix moves every field of the evaluation batch to the device.
# split: dev
import torch
import torch.nn as nn


class RunningAUROCish:
    def __init__(self, device):
        self.scores = torch.empty(0, device=device)
        self.labels = torch.empty(0, device=device)

    def update(self, score, label):
        self.scores = torch.cat([self.scores, score])
        self.labels = torch.cat([self.labels, label])


def train_epoch(net, loader, opt, device):
    for img, label in loader:
        img, label = img.to(device), label.to(device)
        loss = nn.functional.binary_cross_entropy_with_logits(net(img).squeeze(1), label)
        opt.zero_grad()
        loss.backward()
        opt.step()


def evaluate(net, loader, device):
    metric = RunningAUROCish(device)
    net.eval()
    with torch.no_grad():
        for img, label in loader:
            score = net(img.to(device)).squeeze(1)
            metric.update(score, label)  # bug: eval_batch_not_moved
    return metric
