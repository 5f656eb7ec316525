# source: https://github.com/lafith/Mobile-UNet/issues/1
# also: https://github.com/lafith/Mobile-UNet/commit/d32de4d60d09e36680e94ae69d2320f18ea171d5
# kind: module_in_forward
# bug: the inverted-residual block built a fresh 1x1 `nn.Conv2d` inside `forward` to project the skip connection whenever input and output widths differed, so the layer was re-initialised on every call, never trained or saved, and created on the CPU even when the network ran on CUDA; the author's fix defines the projection once in `__init__`.
# split: test16
import torch
import torch.nn as nn


class InvertedResidualBlock(nn.Module):
    def __init__(self, in_c, out_c, stride, expansion=6):
        super().__init__()
        assert stride in (1, 2)
        self.in_c, self.out_c = in_c, out_c
        self.use_skip = stride == 1
        ex_c = int(in_c * expansion)
        self.conv = nn.Sequential(
            nn.Conv2d(in_c, ex_c, 1, bias=False), nn.BatchNorm2d(ex_c), nn.ReLU6(inplace=True),
            nn.Conv2d(ex_c, ex_c, 3, stride, 1, groups=ex_c, bias=False), nn.BatchNorm2d(ex_c), nn.ReLU6(inplace=True),
            nn.Conv2d(ex_c, out_c, 1, bias=False), nn.BatchNorm2d(out_c),
        )

    def forward(self, x):
        if not self.use_skip:
            return self.conv(x)
        out = self.conv(x)
        if self.in_c != self.out_c:
            x = nn.Conv2d(self.in_c, self.out_c, 1, 1, 0, bias=False)(x)  # bug: module_in_forward
        return x + out


class MobileUNetEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU6(inplace=True))
        self.blocks = nn.Sequential(
            InvertedResidualBlock(32, 16, 1, expansion=1),
            InvertedResidualBlock(16, 24, 2),
            InvertedResidualBlock(24, 24, 1),
            InvertedResidualBlock(24, 32, 2),
        )
        self.head = nn.Conv2d(32, 3, 1)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = MobileUNetEncoder().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x = torch.randn(4, 3, 224, 224, device=device)
    loss = net(x).abs().mean()
    loss.backward()
    opt.step()
