# source: https://github.com/IntelLabs/DyNAS-T/pull/53
# also: https://github.com/IntelLabs/DyNAS-T/commit/6f15abd074fc6b052792b9beecb0e01a40e7ceb8
# kind: model_not_moved
# bug: the shared classification validation helper moved every image/label batch to the requested device but never moved the model, and the supernet search passed it freshly extracted sub-networks that still lived on the CPU, so GPU validation failed; the fix adds `model.to(device)` in the helper.
# split: test18
import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def validate_classification(model, data_loader, device="cpu"):
    criterion = nn.CrossEntropyLoss()
    model = model.eval()  # bug: model_not_moved
    losses, top1 = AverageMeter(), AverageMeter()
    with torch.no_grad():
        for images, labels in data_loader:
            images, labels = images.to(device), labels.to(device)
            output = model(images)
            loss = criterion(output, labels)
            acc = (output.argmax(1) == labels).float().mean().item() * 100
            losses.update(loss.item(), images.size(0))
            top1.update(acc, images.size(0))
    return losses.avg, top1.avg


class ElasticSupernet(nn.Module):
    def __init__(self, max_width=64, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, max_width, 3, padding=1)
        self.head = nn.Linear(max_width, classes)

    def get_subnet(self, width):
        sub = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                            nn.Flatten(), nn.Linear(width, self.head.out_features))
        with torch.no_grad():
            sub[0].weight.copy_(self.stem.weight[:width])
            sub[0].bias.copy_(self.stem.bias[:width])
            sub[4].weight.copy_(self.head.weight[:, :width])
            sub[4].bias.copy_(self.head.bias)
        return sub


class SupernetInterface:
    def __init__(self, supernet, loader, device="cuda"):
        self.supernet = supernet
        self.loader = loader
        self.device = device

    def validate_top1(self, width):
        subnet = self.supernet.get_subnet(width)
        _, top1 = validate_classification(model=subnet, data_loader=self.loader, device=self.device)
        return top1
