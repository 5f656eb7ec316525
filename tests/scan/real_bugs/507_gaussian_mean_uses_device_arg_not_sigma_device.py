# source: https://github.com/kornia/kornia/pull/2838
# kind: wrong_device_choice
# bug: the gaussian() kernel helper accepts sigma either as a float or as a (B, 1) tensor and has device/dtype arguments meant only for the float case, but it also built the default centre (mean) from those arguments, so with a CUDA sigma tensor and device=None the mean landed on the CPU and arange(...) - mean crashed with a cuda/cpu mismatch (hit through the differentiable JPEG codec); the fix creates the mean tensor on sigma's device and dtype.
# split: test24
from typing import Optional, Union

import torch
from torch import Tensor


def gaussian(window_size: int, sigma: Union[Tensor, float], *,
             mean: Optional[Union[Tensor, float]] = None,
             device: Optional[torch.device] = None,
             dtype: Optional[torch.dtype] = None) -> Tensor:
    if isinstance(sigma, float):
        sigma = torch.tensor([[sigma]], device=device, dtype=dtype)
    if sigma.dim() != 2 or sigma.shape[1] != 1:
        raise ValueError("sigma must have shape (B, 1)")
    batch_size = sigma.shape[0]

    mean = float(window_size // 2) if mean is None else mean
    if isinstance(mean, float):
        mean = torch.tensor([[mean]], device=device, dtype=dtype)  # bug: wrong_device_choice

    x = (torch.arange(window_size, device=sigma.device, dtype=sigma.dtype) - mean).expand(batch_size, -1)
    if window_size % 2 == 0:
        x = x + 0.5
    gauss = torch.exp(-x.pow(2.0) / (2 * sigma.pow(2.0)))
    return gauss / gauss.sum(-1, keepdim=True)


def gaussian_kernel2d(kernel_size, sigma: Tensor) -> Tensor:
    ky = gaussian(kernel_size[0], sigma[:, 0:1])
    kx = gaussian(kernel_size[1], sigma[:, 1:2])
    return ky[:, :, None] * kx[:, None, :]


def blur_chroma(image: Tensor, strength: Tensor) -> Tensor:
    b, c, h, w = image.shape
    sigma = torch.stack([strength, strength], dim=-1)
    kernel = gaussian_kernel2d((5, 5), sigma)
    kernel = kernel[:, None].repeat(1, c, 1, 1).reshape(b * c, 1, 5, 5)
    out = torch.nn.functional.conv2d(image.reshape(1, b * c, h, w), kernel, padding=2, groups=b * c)
    return out.reshape(b, c, h, w)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    img = torch.rand(2, 3, 16, 16, device=dev)
    print(blur_chroma(img, torch.tensor([1.0, 2.0], device=dev)).shape)
