# source: https://github.com/EugenHotaj/pytorch-generative/issues/15
# also: https://github.com/EugenHotaj/pytorch-generative/commit/9497c7116811c7d0a782a4593a177add1c43c119
# kind: tensor_no_device_in_forward
# bug: the autoregressive image model's attention block built the per-pixel (x, y) position encoding with torch.zeros/torch.arange (CPU) inside forward and concatenated it with the CUDA residual features, so training on the GPU failed; the fix moved the encoding to res.device.
# split: test2
import torch
from torch import nn


def coord_channels(shape):
    n, c, h, w = shape
    base = torch.zeros(n, c, h, w)
    ys = torch.arange(-0.5, 0.5, 1 / h)[None, None, :, None] + base
    xs = torch.arange(-0.5, 0.5, 1 / w)[None, None, None, :] + base
    return torch.cat((ys, xs), dim=1)


class AttnBlock(nn.Module):
    def __init__(self, ch: int, img_ch: int = 1):
        super().__init__()
        self.res = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ELU())
        self.query = nn.Conv2d(ch + 2 * img_ch, 16, 1)
        self.out = nn.Conv2d(16, ch, 1)

    def forward(self, x, img):
        r = self.res(x)
        pos = coord_channels(img.shape)
        q = self.query(torch.cat((pos, r), dim=1))  # bug: tensor_no_device_in_forward
        return r + self.out(torch.tanh(q))


class TinySnail(nn.Module):
    def __init__(self, ch: int = 32, blocks: int = 2):
        super().__init__()
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.blocks = nn.ModuleList(AttnBlock(ch) for _ in range(blocks))
        self.head = nn.Conv2d(ch, 1, 1)

    def forward(self, img):
        h = self.inp(img)
        for blk in self.blocks:
            h = blk(h, img)
        return torch.sigmoid(self.head(h))


if __name__ == "__main__":
    model = TinySnail().to("cuda")
    print(model(torch.rand(4, 1, 28, 28, device="cuda")).shape)
