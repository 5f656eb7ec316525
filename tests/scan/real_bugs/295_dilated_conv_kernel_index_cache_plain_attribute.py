# source: https://github.com/K-H-Ismail/Dilated-Convolution-with-Learnable-Spacings-PyTorch/pull/8
# kind: attribute_not_buffer
# bug: the kernel-construction modules cached their index grid `IDX` and limit `lim` as plain attributes, built lazily on the device of the first call; when the first call ran on the CPU (a sanity check) and the model was then moved to CUDA, `.to()` did not move the cached tensors and `P + self.lim // 2` failed with CPU and CUDA tensors; the maintainer asked for them to become registered buffers, which the merged PR did.
# split: test13
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConstructKernel1d(nn.Module):
    def __init__(self, out_channels, in_channels, kernel_count, dilated_kernel_size):
        super().__init__()
        self.out_channels = out_channels
        self.in_channels = in_channels
        self.kernel_count = kernel_count
        self.dilated_kernel_size = dilated_kernel_size
        self.IDX = None
        self.lim = None

    def _init_tmp_variables(self, device):
        if self.IDX is None or self.lim is None:
            idx = torch.arange(0, self.dilated_kernel_size).to(device)
            self.IDX = idx.view(-1, 1, 1, 1).expand(-1, self.out_channels, self.in_channels, self.kernel_count)  # bug: attribute_not_buffer
            lim = torch.tensor(self.dilated_kernel_size).to(device)
            self.lim = lim.expand(self.out_channels, self.in_channels, self.kernel_count)

    def forward(self, W, P, SIG):
        self._init_tmp_variables(W.device)
        P = P + self.lim // 2
        SIG = SIG.abs() + 0.27
        X = ((self.IDX - P) / SIG) ** 2
        X = (-0.5 * X).exp()
        X = X / (X.sum(0) + 1e-7)
        return (X * W).sum(-1).permute(1, 2, 0)


class Dcls1d(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_count=3, dilated_kernel_size=17):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_channels, in_channels, kernel_count) * 0.1)
        self.P = nn.Parameter(torch.rand(out_channels, in_channels, kernel_count) * 4 - 2)
        self.SIG = nn.Parameter(torch.full((out_channels, in_channels, kernel_count), 0.5))
        self.kernel = ConstructKernel1d(out_channels, in_channels, kernel_count, dilated_kernel_size)
        self.padding = dilated_kernel_size // 2

    def forward(self, x):
        k = self.kernel(self.weight, self.P, self.SIG)
        return F.conv1d(x, k, padding=self.padding)


if __name__ == "__main__":
    net = nn.Sequential(Dcls1d(16, 32), nn.GELU(), Dcls1d(32, 32))
    with torch.no_grad():
        net(torch.randn(1, 16, 100))  # sanity check on the CPU fills the caches
    device = torch.device("cuda")
    net = net.to(device)
    out = net(torch.randn(8, 16, 100, device=device))
