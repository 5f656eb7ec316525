# source: https://github.com/norse/norse/pull/397
# also: https://github.com/norse/norse/commit/9f884fce780755d50c1587e320a71fbcbf793a6d
# kind: attribute_not_buffer
# bug: the spatial receptive-field module computed its convolution kernels from the field parameters and stored them as a plain tensor attribute, so moving the (sampled/parametrised) module to CUDA left the kernels on the CPU; the fix registers the kernels with register_buffer.
# split: test2
import torch
import torch.nn.functional as F
from torch import nn


def gaussian_fields(params: torch.Tensor, size: int) -> torch.Tensor:
    r = torch.linspace(-1.0, 1.0, size, device=params.device)
    yy, xx = torch.meshgrid(r, r, indexing="ij")
    scale = params[:, :1, None]
    return torch.exp(-(xx ** 2 + yy ** 2)[None] / scale ** 2)


class FieldConv2d(nn.Module):
    def __init__(self, in_ch: int, size: int, params: torch.Tensor, learn: bool = False):
        super().__init__()
        self.in_ch, self.size = in_ch, size
        self.params = nn.Parameter(params) if learn else params
        self.refresh()

    def refresh(self):
        fields = gaussian_fields(self.params, self.size)
        self.kernels = fields.unsqueeze(1).repeat(1, self.in_ch, 1, 1)  # bug: attribute_not_buffer

    def forward(self, x):
        return F.conv2d(x, self.kernels, padding=self.size // 2)


class ScaleBank(nn.Module):
    def __init__(self, in_ch: int, scales):
        super().__init__()
        params = torch.tensor([[s, 0.0, 1.0] for s in scales])
        self.rf = FieldConv2d(in_ch, 9, params)

    def forward(self, x):
        return torch.relu(self.rf(x))


if __name__ == "__main__":
    m = ScaleBank(2, [0.5, 1.0, 2.0]).cuda()
    print(m(torch.randn(1, 2, 32, 32, device="cuda")).shape)
