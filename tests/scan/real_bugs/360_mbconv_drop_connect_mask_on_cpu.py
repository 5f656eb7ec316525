# source: https://github.com/lukemelas/EfficientNet-PyTorch/issues/29
# also: https://github.com/lukemelas/EfficientNet-PyTorch/commit/939d4abdeefc07e63d8bd42e7223365a4bc67942
# kind: tensor_no_device_in_forward
# bug: the stochastic-depth helper called from each inverted-residual block's forward drew its per-sample keep mask with `torch.rand([batch, 1, 1, 1], dtype=inputs.dtype)` and no device, so training on the GPU failed with "expected backend CUDA ... but got backend CPU"; the fix passes `device=inputs.device` to `torch.rand`.
# split: test17
import torch
import torch.nn as nn
import torch.nn.functional as F


def drop_connect(inputs, p, training):
    if not training:
        return inputs
    batch_size = inputs.shape[0]
    keep_prob = 1 - p
    random_tensor = keep_prob
    random_tensor += torch.rand([batch_size, 1, 1, 1], dtype=inputs.dtype)  # bug: tensor_no_device_in_forward
    return inputs / keep_prob * torch.floor(random_tensor)


class MBConvBlock(nn.Module):
    def __init__(self, channels, expand=4):
        super().__init__()
        hidden = channels * expand
        self.expand = nn.Conv2d(channels, hidden, 1, bias=False)
        self.bn0 = nn.BatchNorm2d(hidden)
        self.depthwise = nn.Conv2d(hidden, hidden, 3, padding=1, groups=hidden, bias=False)
        self.bn1 = nn.BatchNorm2d(hidden)
        self.project = nn.Conv2d(hidden, channels, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x, drop_connect_rate=None):
        h = F.silu(self.bn0(self.expand(x)))
        h = F.silu(self.bn1(self.depthwise(h)))
        h = self.bn2(self.project(h))
        if drop_connect_rate:
            h = drop_connect(h, p=drop_connect_rate, training=self.training)
        return h + x


class TinyEfficientNet(nn.Module):
    def __init__(self, num_classes=10, drop_connect_rate=0.2):
        super().__init__()
        self.stem = nn.Conv2d(3, 32, 3, stride=2, padding=1)
        self.blocks = nn.ModuleList([MBConvBlock(32) for _ in range(4)])
        self.head = nn.Linear(32, num_classes)
        self.drop_connect_rate = drop_connect_rate

    def forward(self, x):
        x = self.stem(x)
        for i, block in enumerate(self.blocks):
            x = block(x, drop_connect_rate=self.drop_connect_rate * i / len(self.blocks))
        return self.head(x.mean((2, 3)))


if __name__ == "__main__":
    device = torch.device("cuda")
    model = TinyEfficientNet().to(device)
    images = torch.randn(8, 3, 64, 64, device=device)
    F.cross_entropy(model(images), torch.randint(0, 10, (8,), device=device)).backward()
