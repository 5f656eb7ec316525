# source: https://github.com/RobustBench/robustbench/issues/58
# also: https://github.com/RobustBench/robustbench/pull/61
# kind: other
# bug: the pre-activation ResNet kept its input mean/std as plain CPU attributes and, on the first CUDA input, cached copies made with a bare `.cuda()`, i.e. on the default GPU; evaluating the model on cuda:3 then subtracted a cuda:0 mean from cuda:3 inputs; the fix registered mean/std as non-persistent buffers so `.to(device)` moves them with the model.
# split: test13
import torch
import torch.nn as nn
import torch.nn.functional as F

CIFAR10_MEAN = (0.4914, 0.4822, 0.4465)
CIFAR10_STD = (0.2471, 0.2435, 0.2616)


class PreActBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.bn0, self.bn1 = nn.BatchNorm2d(cin), nn.BatchNorm2d(cout)
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.shortcut = nn.Conv2d(cin, cout, 1, stride, bias=False) if stride != 1 or cin != cout else None

    def forward(self, x):
        out = F.relu(self.bn0(x))
        sc = self.shortcut(out) if self.shortcut is not None else x
        out = self.conv2(F.relu(self.bn1(self.conv1(out))))
        return out + sc


class PreActResNet(nn.Module):
    def __init__(self, num_classes=10, mean=CIFAR10_MEAN, std=CIFAR10_STD):
        super().__init__()
        self.mean = torch.tensor(mean).view(3, 1, 1)
        self.std = torch.tensor(std).view(3, 1, 1)
        self.mean_cuda = None
        self.std_cuda = None
        self.conv = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        self.layers = nn.Sequential(PreActBlock(64, 64, 1), PreActBlock(64, 128, 2), PreActBlock(128, 256, 2))
        self.bn = nn.BatchNorm2d(256)
        self.logits = nn.Linear(256, num_classes)

    def forward(self, x):
        if x.is_cuda:
            if self.mean_cuda is None:
                self.mean_cuda = self.mean.cuda()  # bug: other
                self.std_cuda = self.std.cuda()
            out = (x - self.mean_cuda) / self.std_cuda
        else:
            out = (x - self.mean) / self.std
        out = F.relu(self.bn(self.layers(self.conv(out))))
        return self.logits(F.adaptive_avg_pool2d(out, 1).flatten(1))


def clean_accuracy(model, loader, device=torch.device("cuda:3")):
    model = model.to(device).eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            correct += (model(x).argmax(1) == y).sum().item()
            total += y.numel()
    return correct / total
