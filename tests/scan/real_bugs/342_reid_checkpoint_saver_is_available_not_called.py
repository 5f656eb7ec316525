# source: https://github.com/layumi/Person_reID_baseline_pytorch/pull/63
# also: https://github.com/layumi/Person_reID_baseline_pytorch/commit/42cf0578f482313ca855171c3404a937bc363280
# kind: other
# bug: the training script's checkpoint helper moved the network to the CPU to save it and then moved it back under `if torch.cuda.is_available:`, testing the function object (always true) instead of calling it, so on a machine without CUDA the `.cuda()` branch ran anyway; the merged fix calls `torch.cuda.is_available()`.
# split: test16
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

gpu_ids = [0]
use_gpu = torch.cuda.is_available()


class ReIDNet(nn.Module):
    def __init__(self, num_ids, dim=512):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.bottleneck = nn.Linear(64, dim)
        self.classifier = nn.Linear(dim, num_ids)

    def forward(self, x):
        f = self.backbone(x).flatten(1)
        return self.classifier(F.relu(self.bottleneck(f)))


def save_network(network, epoch_label, name="baseline"):
    save_path = os.path.join("./model", name, "net_%s.pth" % epoch_label)
    torch.save(network.cpu().state_dict(), save_path)
    if torch.cuda.is_available:  # bug: other
        network.cuda(gpu_ids[0])


def train_model(model, loader, optimizer, num_epochs=60):
    for epoch in range(num_epochs):
        model.train()
        for inputs, labels in loader:
            if use_gpu:
                inputs, labels = inputs.cuda(), labels.cuda()
            loss = F.cross_entropy(model(inputs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if epoch % 10 == 9:
            save_network(model, epoch)
    return model


if __name__ == "__main__":
    model = ReIDNet(751)
    if use_gpu:
        model = model.cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
