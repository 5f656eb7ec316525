# source: https://github.com/vballoli/nfnets-pytorch/issues/3
# also: https://github.com/vballoli/nfnets-pytorch/commit/55f9e2454c173314b7e3faab3934ea06d329e2fd
# kind: attribute_not_buffer
# bug: the weight-standardised convolution kept its per-channel gain as a plain `torch.ones(...)` attribute (neither parameter nor buffer), so `model.to('cuda')` left it on the CPU and weight standardisation in forward mixed devices; the fix moved the gain (and the eps constant) to the weight's device.
# split: test19
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledStdConv2d(nn.Conv2d):
    def __init__(self, cin, cout, k, stride=1, padding=0):
        super().__init__(cin, cout, k, stride=stride, padding=padding)
        nn.init.kaiming_normal_(self.weight)
        self.gain = torch.ones(self.out_channels, requires_grad=True)  # bug: attribute_not_buffer

    def standardized_weight(self, eps=1e-4):
        var, mean = torch.var_mean(self.weight, dim=(1, 2, 3), keepdim=True)
        fan_in = self.weight[0].numel()
        scale = torch.rsqrt(torch.clamp(var * fan_in, min=eps)) * self.gain.view_as(var)
        return self.weight * scale - mean * scale

    def forward(self, x):
        return F.conv2d(x, self.standardized_weight(), self.bias, self.stride, self.padding)


class NFBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = ScaledStdConv2d(ch, ch, 3, padding=1)
        self.conv2 = ScaledStdConv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return x + 0.2 * self.conv2(F.gelu(self.conv1(F.gelu(x))))


if __name__ == "__main__":
    net = nn.Sequential(ScaledStdConv2d(3, 16, 3, padding=1), NFBlock(16), NFBlock(16)).to("cuda")
    y = net(torch.randn(2, 3, 32, 32, device="cuda"))
    y.mean().backward()
