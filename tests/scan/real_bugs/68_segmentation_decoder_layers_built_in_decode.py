# source: https://github.com/gupta-abhay/setr-pytorch/issues/4
# also: https://github.com/gupta-abhay/setr-pytorch/commit/ddb63efbd77b08f1aca7d8d7302c7fd231288be8
# kind: module_in_forward
# bug: the segmentation head created its Conv2d/BatchNorm2d layers inside decode(), which runs on every forward, so they were fresh, untrained and on the CPU each call; the fix built them once in __init__.
# split: dev2
import torch
from torch import nn

from encoder import PatchEncoder


class NaiveSegHead(nn.Module):
    def __init__(self, embed_dim: int, n_classes: int, patch: int):
        super().__init__()
        self.encoder = PatchEncoder(embed_dim, patch)
        self.embed_dim, self.n_classes, self.patch = embed_dim, n_classes, patch

    def decode(self, feats):
        x = nn.Conv2d(self.embed_dim, self.embed_dim, 1)(feats)  # bug: module_in_forward
        x = nn.BatchNorm2d(self.embed_dim)(x)  # bug: module_in_forward
        x = torch.relu(x)
        x = nn.Conv2d(self.embed_dim, self.n_classes, 1)(x)  # bug: module_in_forward
        return nn.functional.interpolate(x, scale_factor=self.patch, mode="bilinear")

    def forward(self, img):
        return self.decode(self.encoder(img))


if __name__ == "__main__":
    net = NaiveSegHead(256, 21, 16).cuda()
    print(net(torch.randn(2, 3, 256, 256).cuda()).shape)
