# source: https://github.com/ChristophReich1996/MaxViT/issues/9
# also: https://github.com/ChristophReich1996/MaxViT/commit/0ce13879cd031b22d6d2cf4d349b9d017329398a
# kind: other
# bug: The network kept its stages in a plain Python list, so model.to("cuda") never moved (or registered) their weights and the first stage's batch norm saw CUDA inputs with CPU weights; the fix wraps the stages in nn.ModuleList.
# split: test
import torch
import torch.nn as nn


def make_stage(c_in, c_out):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride=2, padding=1), nn.BatchNorm2d(c_out), nn.GELU())


class PyramidNet(nn.Module):
    def __init__(self, widths=(32, 64, 128), classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, widths[0], 3, padding=1)
        self.blocks = []  # bug: other
        c = widths[0]
        for w in widths:
            self.blocks.append(make_stage(c, w))
            c = w
        self.fc = nn.Linear(c, classes)

    def forward(self, x):
        x = self.stem(x)
        for blk in self.blocks:
            x = blk(x)
        return self.fc(x.mean(dim=(2, 3)))


if __name__ == "__main__":
    net = PyramidNet().to("cuda")
    print(net(torch.randn(2, 3, 32, 32, device="cuda")).shape)
