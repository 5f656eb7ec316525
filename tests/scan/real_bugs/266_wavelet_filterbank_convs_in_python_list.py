# source: https://github.com/kymatio/murenn/issues/42
# also: https://github.com/kymatio/murenn/commit/4da91a88a990d22afed445cd636e12444c2e1adb
# kind: other
# bug: the multi-resolution wavelet layer appended its per-scale downsampling transforms and learnable `Conv1d` filters to plain Python lists stored on `self`, so they were not registered submodules: `.to(device)` and `.parameters()` skipped them and a CUDA input met CPU filter weights; the fix (PR #44) builds local lists and wraps them in `nn.ModuleList`/`nn.ParameterList`.
# split: test12
import torch
import torch.nn as nn
import torch.nn.functional as F


class HalfBand(nn.Module):
    def __init__(self, levels):
        super().__init__()
        self.levels = levels

    def forward(self, x):
        for _ in range(self.levels):
            x = F.avg_pool1d(x, 2)
        return x


class MultiResolutionLayer(nn.Module):
    def __init__(self, *, J, Q, T, in_channels):
        super().__init__()
        self.J, self.Q, self.C = J, Q, in_channels
        self.down = []
        self.conv1d = []  # bug: other
        for j in range(J):
            self.down.append(HalfBand(J - j))
            conv = nn.Conv1d(in_channels, Q * in_channels, kernel_size=T, bias=False,
                             groups=in_channels, padding="same")
            nn.init.normal_(conv.weight)
            self.conv1d.append(conv)

    def bandpass(self, x):
        bands = []
        for j in range(self.J):
            low = F.avg_pool1d(x, 2)
            bands.append(x[..., ::2] - low)
            x = low
        return bands

    def forward(self, x):
        assert x.shape[1] == self.C
        ys = []
        for j, band in enumerate(self.bandpass(x)):
            energy = self.conv1d[j](band) ** 2
            y = self.down[j](energy)
            b, _, n = y.shape
            ys.append(y.view(b, self.C, self.Q, n))
        return torch.stack(ys, dim=3)


if __name__ == "__main__":
    layer = MultiResolutionLayer(J=4, Q=6, T=5, in_channels=2).to("cuda")
    print(sum(p.numel() for p in layer.parameters()))
    print(layer(torch.randn(3, 2, 2 ** 10, device="cuda")).shape)
