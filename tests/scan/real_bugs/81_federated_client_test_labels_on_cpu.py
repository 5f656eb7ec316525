# source: https://github.com/flwrlabs/flower/pull/1140
# kind: eval_batch_not_moved
# bug: the quickstart client's test function moved the images to the device but compared the CUDA predictions with CPU labels, which raised a device error on GPU machines; the fix moved the labels as well.
# split: dev2
import torch
import torch.nn as nn

from net import SmallConvNet

DEVICE = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def train(net, loader, epochs):
    crit = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    for _ in range(epochs):
        for images, labels in loader:
            images, labels = images.to(DEVICE), labels.to(DEVICE)
            opt.zero_grad()
            crit(net(images), labels).backward()
            opt.step()


def test(net, loader):
    correct, total = 0, 0
    with torch.no_grad():
        for images, labels in loader:
            outputs = net(images.to(DEVICE))
            correct += (torch.max(outputs.data, 1)[1] == labels).sum().item()  # bug: eval_batch_not_moved
            total += labels.size(0)
    return correct / max(total, 1)


if __name__ == "__main__":
    net = SmallConvNet().to(DEVICE)
    train(net, [], 1)
