# source: https://github.com/kornia/kornia/pull/3652
# kind: tensor_no_device_in_forward
# bug: the 2D shear-matrix builder used by the shear/affine augmentations filled a missing shear angle with torch.tensor([0.0]).repeat(batch), a CPU tensor with default dtype, so shearing CUDA images along only one axis stacked a CPU default with CUDA angles and centers and failed (and mixed dtypes for half inputs); the fix creates the default with torch.zeros(batch, device=center.device, dtype=center.dtype).
# split: test25
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


def to_homography(affine: torch.Tensor) -> torch.Tensor:
    pad = torch.zeros(affine.shape[0], 1, 3, device=affine.device, dtype=affine.dtype)
    pad[:, 0, 2] = 1.0
    return torch.cat([affine, pad], dim=1)


def get_shear_matrix2d(center: torch.Tensor, sx: Optional[torch.Tensor] = None,
                       sy: Optional[torch.Tensor] = None) -> torch.Tensor:
    sx = torch.zeros(center.size(0), device=center.device, dtype=center.dtype) if sx is None else sx
    sy = torch.tensor([0.0]).repeat(center.size(0)) if sy is None else sy  # bug: tensor_no_device_in_forward
    x, y = center[:, 0], center[:, 1]
    sx_tan, sy_tan = torch.tan(sx), torch.tan(sy)
    ones = torch.ones_like(sx)
    mat = torch.stack([ones, -sx_tan, sx_tan * y, -sy_tan, ones + sx_tan * sy_tan, sy_tan * (x - sx_tan * y)], dim=-1)
    return to_homography(mat.view(-1, 2, 3))


class RandomShearX(nn.Module):
    def __init__(self, max_deg=20.0):
        super().__init__()
        self.max_rad = max_deg * torch.pi / 180.0

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        b, _, h, w = images.shape
        center = torch.tensor([[w / 2.0, h / 2.0]], device=images.device).repeat(b, 1)
        sx = (torch.rand(b, device=images.device) * 2 - 1) * self.max_rad
        mat = get_shear_matrix2d(center, sx=sx)
        theta = mat[:, :2, :]
        theta[:, :, 2] = 0.0
        grid = F.affine_grid(theta, images.shape, align_corners=False)
        return F.grid_sample(images, grid, align_corners=False)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    aug = RandomShearX()
    print(aug(torch.rand(4, 3, 64, 64, device=dev)).shape)
