# source: https://github.com/huggingface/pytorch-image-models/pull/2743
# also: https://github.com/huggingface/pytorch-image-models/pull/2752
# kind: model_not_moved
# bug: the shared classifier heads rebuilt their final linear layer in reset() with PyTorch's default (CPU, float32) factory settings, so calling reset_classifier() on a backbone that had already been moved to the GPU left the new head on the CPU and the next forward failed; the fix derives device/dtype from the existing head parameters when creating the replacement layers.
# split: test19
import torch
import torch.nn as nn
import torch.nn.functional as F


class PoolClassifierHead(nn.Module):
    def __init__(self, in_features, num_classes, drop_rate=0.0):
        super().__init__()
        self.in_features = in_features
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.drop = nn.Dropout(drop_rate)
        self.fc = nn.Linear(in_features, num_classes) if num_classes > 0 else nn.Identity()

    def reset(self, num_classes):
        self.fc = nn.Linear(self.in_features, num_classes) if num_classes > 0 else nn.Identity()  # bug: model_not_moved

    def forward(self, x):
        return self.fc(self.drop(self.pool(x).flatten(1)))


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())
        self.stage = nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU())
        self.head = PoolClassifierHead(64, num_classes)

    def reset_classifier(self, num_classes):
        self.head.reset(num_classes)

    def forward(self, x):
        return self.head(self.stage(self.stem(x)))


def finetune(loader, num_classes=10, device="cuda"):
    model = SmallConvNet().to(device)
    model.reset_classifier(num_classes)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        loss = F.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


if __name__ == "__main__":
    batches = [(torch.randn(8, 3, 64, 64), torch.randint(0, 10, (8,))) for _ in range(3)]
    finetune(batches)
