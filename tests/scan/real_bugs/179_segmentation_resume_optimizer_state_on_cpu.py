# source: https://github.com/cv-lee/BraTs/pull/10
# also: https://github.com/cv-lee/BraTs/commit/a77add6d668704c0bee5f97364644aa63a59790d
# kind: loaded_weights_not_moved
# bug: when resuming, the checkpoint (model and SGD state) was loaded into a network that was still on the CPU and only then was the network moved with .cuda(), so the restored momentum buffers stayed on the CPU while the parameters went to the GPU and the first optimizer.step() mixed devices; the fix moves every tensor in the restored optimizer state to CUDA after load_state_dict.
# split: test7
import torch
import torch.nn as nn
from torch.optim import SGD


class TinyUNet(nn.Module):
    def __init__(self, in_ch=4, n_classes=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(in_ch, 32, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(32, n_classes, 1)

    def forward(self, x):
        return self.head(self.enc(x))


class Snapshot:
    def __init__(self, net, optimizer=None):
        self.net = net
        self.optimizer = optimizer
        self.epoch = 0

    def restore(self, path):
        state = torch.load(path)
        self.net.load_state_dict(state["net"])
        self.epoch = state["epoch"]
        if self.optimizer is not None:
            self.optimizer.load_state_dict(state["optim"])  # bug: loaded_weights_not_moved


def build(resume_path, lr, use_cuda):
    net = TinyUNet()
    optimizer = SGD(net.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    start = 1
    if resume_path:
        snap = Snapshot(net, optimizer)
        snap.restore(resume_path)
        start = snap.epoch + 1
    if use_cuda:
        net.cuda()
        net = nn.DataParallel(net)
    return net, optimizer, start


def train(loader, resume_path=None, epochs=5):
    net, optimizer, start = build(resume_path, 0.01, torch.cuda.is_available())
    for epoch in range(start, start + epochs):
        for images, masks in loader:
            images, masks = images.cuda(), masks.cuda()
            loss = nn.functional.cross_entropy(net(images), masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
