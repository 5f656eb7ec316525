# source: https://github.com/spdlearn/spd_learn/pull/16
# kind: hardcoded_cpu
# bug: the Gabor wavelet convolution layer stored a constructor `device` argument that defaulted to torch.device("cpu") and cast its forward output with `.to(device=self.device)`, so on a GPU the output was sent back to the CPU and the next layer failed; the fix uses the input tensor's device instead.
# split: test19
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GaborFilterBank(nn.Module):
    def __init__(self, n_filters=6, sfreq=128, width_s=0.5, device=None):
        super().__init__()
        self.sfreq = sfreq
        self.device = device if device is not None else torch.device("cpu")
        n = int(width_s * sfreq)
        self.register_buffer("t", torch.linspace(-width_s / 2, width_s / 2, n))
        self.log_freq = nn.Parameter(torch.linspace(2.0, 5.0, n_filters))
        self.log_fwhm = nn.Parameter(-torch.linspace(2.0, 5.0, n_filters))

    def kernels(self):
        freq = 2 ** self.log_freq[:, None]
        fwhm = 2 ** self.log_fwhm[:, None]
        env = torch.exp(-4 * math.log(2) * self.t[None] ** 2 / fwhm ** 2)
        return env * torch.cos(2 * math.pi * freq * self.t[None])

    def forward(self, x):
        b, c, t = x.shape
        k = self.kernels().unsqueeze(1)
        y = F.conv1d(x.reshape(b * c, 1, t), k)
        y = y.reshape(b, c, k.shape[0], -1).transpose(1, 2)
        return y.to(device=self.device)  # bug: hardcoded_cpu


class EEGNet(nn.Module):
    def __init__(self, n_channels=8, n_classes=3):
        super().__init__()
        self.bank = GaborFilterBank()
        self.head = nn.Linear(6 * n_channels, n_classes)

    def forward(self, x):
        power = self.bank(x).pow(2).mean(-1)
        return self.head(power.flatten(1))


if __name__ == "__main__":
    net = EEGNet().cuda()
    print(net(torch.randn(2, 8, 512, device="cuda")).shape)
