# source: https://github.com/tatp22/multidim-positional-encoding/pull/31
# also: https://github.com/tatp22/multidim-positional-encoding/commit/97bf784de2076c1496d4c6142c4c965f6679ae82
# kind: attribute_not_buffer
# bug: the positional-encoding layers cached their last computed encoding in a plain attribute (self.cached_penc = None, later a tensor) and returned it whenever the input shape matched, so after the module was moved to another device the stale cached tensor stayed where it was first computed and the sum with the input failed; the fix registers cached_penc as a buffer so .to()/.cuda() moves it with the module.
# split: test7
import numpy as np
import torch
import torch.nn as nn


def interleave_sin_cos(angles):
    return torch.flatten(torch.stack((angles.sin(), angles.cos()), dim=-1), -2, -1)


class SinusoidalEncoding1D(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.org_channels = channels
        channels = int(np.ceil(channels / 2) * 2)
        self.channels = channels
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2).float() / channels))
        self.register_buffer("inv_freq", inv_freq)
        self.cached_penc = None  # bug: attribute_not_buffer

    def forward(self, tensor):
        if tensor.dim() != 3:
            raise RuntimeError("expected a (batch, x, ch) tensor")
        if self.cached_penc is not None and self.cached_penc.shape == tensor.shape:
            return self.cached_penc
        batch, x, orig_ch = tensor.shape
        pos = torch.arange(x, device=tensor.device).type(self.inv_freq.type())
        emb = torch.zeros((x, self.channels), device=tensor.device).type(tensor.type())
        emb[:, : self.channels] = interleave_sin_cos(torch.einsum("i,j->ij", pos, self.inv_freq))
        self.cached_penc = emb[None, :, :orig_ch].repeat(batch, 1, 1)
        return self.cached_penc


class AddEncoding(nn.Module):
    def __init__(self, penc):
        super().__init__()
        self.penc = penc

    def forward(self, tensor):
        return tensor + self.penc(tensor)


if __name__ == "__main__":
    layer = AddEncoding(SinusoidalEncoding1D(64))
    warmup = layer(torch.zeros(8, 100, 64))
    layer = layer.cuda()
    out = layer(torch.randn(8, 100, 64, device="cuda"))
