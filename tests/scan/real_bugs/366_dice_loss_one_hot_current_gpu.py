# source: https://github.com/yassouali/pytorch-segmentation/issues/80
# also: https://github.com/yassouali/pytorch-segmentation/commit/03e90418f0af41b77dfd6c833699f5a0311e89a1
# kind: other
# bug: the Dice loss built its one-hot target with the legacy `torch.cuda.FloatTensor(...)` type, which allocates on the current CUDA device (cuda:0) rather than on the device of the labels, so with the model and targets on another GPU the `scatter_` failed with "arguments are located on different GPUs"; the maintainer's fix allocates the buffer and moves it with `.to(labels.device)`.
# split: test17
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_one_hot(labels, classes):
    one_hot = torch.cuda.FloatTensor(labels.size()[0], classes, labels.size()[2], labels.size()[3]).zero_()  # bug: other
    return one_hot.scatter_(1, labels.data, 1)


class DiceLoss(nn.Module):
    def __init__(self, smooth=1.0, ignore_index=255):
        super().__init__()
        self.smooth = smooth
        self.ignore_index = ignore_index

    def forward(self, output, target):
        if self.ignore_index not in range(target.min(), target.max()):
            if (target == self.ignore_index).sum() > 0:
                target[target == self.ignore_index] = target.min()
        target = make_one_hot(target.unsqueeze(dim=1), classes=output.size()[1])
        output = F.softmax(output, dim=1)
        output_flat = output.contiguous().view(-1)
        target_flat = target.contiguous().view(-1)
        intersection = (output_flat * target_flat).sum()
        return 1 - ((2.0 * intersection + self.smooth) / (output_flat.sum() + target_flat.sum() + self.smooth))


class SegHead(nn.Module):
    def __init__(self, num_classes=6):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, num_classes, 1))

    def forward(self, x):
        return self.body(x)


def train_step(device_id=1):
    device = torch.device(f"cuda:{device_id}")
    model = SegHead().to(device)
    criterion = DiceLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    images = torch.randn(4, 3, 64, 64).to(device)
    masks = torch.randint(0, 6, (4, 64, 64)).to(device)
    loss = criterion(model(images), masks)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
