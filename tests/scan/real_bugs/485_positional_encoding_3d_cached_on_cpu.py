# source: https://github.com/tatp22/multidim-positional-encoding/pull/41
# kind: tensor_no_device_in_forward
# bug: the 3D sinusoidal encoding built its position grids and output table inside forward without a device, so the cached encoding lived on the CPU and adding it to a CUDA patch embedding (via the Summer wrapper) raised a device mismatch; the fix creates the encodings on the input tensor's device.
# split: test23
import numpy as np
import torch
import torch.nn as nn


def get_emb(sin_inp):
    emb = torch.stack((sin_inp.sin(), sin_inp.cos()), dim=-1)
    return torch.flatten(emb, -2, -1)


class PositionalEncoding3D(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.org_channels = channels
        channels = int(np.ceil(channels / 6) * 2)
        if channels % 2:
            channels += 1
        self.channels = channels
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2).float() / channels))
        self.register_buffer("inv_freq", inv_freq)
        self.cached_penc = None

    def forward(self, tensor):
        if tensor.dim() != 5:
            raise RuntimeError("expected (batch, x, y, z, ch)")
        if self.cached_penc is not None and self.cached_penc.shape == tensor.shape:
            return self.cached_penc
        self.cached_penc = None
        batch, x, y, z, orig_ch = tensor.shape
        pos_x = torch.arange(x).type(self.inv_freq.type())
        pos_y = torch.arange(y).type(self.inv_freq.type())
        pos_z = torch.arange(z).type(self.inv_freq.type())
        emb_x = get_emb(torch.einsum("i,j->ij", pos_x, self.inv_freq)).unsqueeze(1).unsqueeze(1)
        emb_y = get_emb(torch.einsum("i,j->ij", pos_y, self.inv_freq)).unsqueeze(1)
        emb_z = get_emb(torch.einsum("i,j->ij", pos_z, self.inv_freq))
        emb = torch.zeros((x, y, z, self.channels * 3), dtype=tensor.dtype)  # bug: tensor_no_device_in_forward
        emb[:, :, :, : self.channels] = emb_x
        emb[:, :, :, self.channels: 2 * self.channels] = emb_y
        emb[:, :, :, 2 * self.channels:] = emb_z
        self.cached_penc = emb[None, :, :, :, :orig_ch].repeat(batch, 1, 1, 1, 1)
        return self.cached_penc


class Summer(nn.Module):
    def __init__(self, penc):
        super().__init__()
        self.penc = penc

    def forward(self, tensor):
        penc = self.penc(tensor)
        return tensor + penc


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    add_pe = Summer(PositionalEncoding3D(96))
    patches = torch.randn(1, 4, 8, 8, 96, device=dev)
    print(add_pe(patches).shape)
