# source: https://github.com/lyuwenyu/RT-DETR/issues/677
# also: https://github.com/lyuwenyu/RT-DETR/pull/679
# kind: attribute_not_buffer
# bug: the precomputed sin-cos position embeddings were attached with setattr as plain CPU tensors, so .cuda()/.half() skipped them and forward copied them host-to-device on every call; the fix registered them as non-persistent buffers.
# split: dev2
import torch
from torch import nn


def sincos_2d(w: int, h: int, dim: int, temp: float = 10000.0) -> torch.Tensor:
    gy, gx = torch.meshgrid(torch.arange(h).float(), torch.arange(w).float(), indexing="ij")
    omega = 1.0 / temp ** (torch.arange(dim // 4).float() / (dim // 4))
    ox, oy = gx.flatten()[:, None] * omega, gy.flatten()[:, None] * omega
    return torch.cat([ox.sin(), ox.cos(), oy.sin(), oy.cos()], dim=1)[None]


class FeatureEncoder(nn.Module):
    def __init__(self, dim=256, strides=(32,), img_size=(640, 640)):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(dim, 8, batch_first=True)
        self.strides = strides
        for i, s in enumerate(strides):
            pe = sincos_2d(img_size[1] // s, img_size[0] // s, dim)
            setattr(self, f"pe{i}", pe)  # bug: attribute_not_buffer

    def forward(self, feat):
        b, c, h, w = feat.shape
        seq = feat.flatten(2).permute(0, 2, 1)
        pe = getattr(self, "pe0").to(seq.device)
        return self.layer(seq + pe).permute(0, 2, 1).reshape(b, c, h, w)


if __name__ == "__main__":
    enc = FeatureEncoder().cuda().eval()
    print(enc(torch.randn(1, 256, 20, 20, device="cuda")).shape)
