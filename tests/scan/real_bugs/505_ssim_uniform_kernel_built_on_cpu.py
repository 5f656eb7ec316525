# source: https://github.com/Lightning-AI/torchmetrics/pull/1149
# kind: tensor_no_device_in_forward
# bug: the functional SSIM computation built its Gaussian kernel on the inputs' device and dtype, but the gaussian_kernel=False branch built the uniform averaging kernel with torch.ones(...) / torch.prod(Tensor(kernel_size)) on the CPU in float32, so SSIM on CUDA images with a uniform kernel failed in conv2d ("Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same"); the fix creates the uniform kernel (and its normaliser) with the preds' dtype and device and one filter per channel.
# split: test24
from typing import Optional, Sequence

import torch
import torch.nn.functional as F
from torch import Tensor


def gaussian_1d(size: int, sigma: float, dtype, device) -> Tensor:
    dist = torch.arange((1 - size) / 2, (1 + size) / 2, 1, dtype=dtype, device=device)
    gauss = torch.exp(-torch.pow(dist / sigma, 2) / 2)
    return (gauss / gauss.sum()).unsqueeze(0)


def gaussian_kernel_2d(channel, kernel_size, sigma, dtype, device) -> Tensor:
    kx = gaussian_1d(kernel_size[0], sigma[0], dtype, device)
    ky = gaussian_1d(kernel_size[1], sigma[1], dtype, device)
    kernel = torch.matmul(kx.t(), ky)
    return kernel.expand(channel, 1, kernel_size[0], kernel_size[1])


def ssim_compute(preds: Tensor, target: Tensor, gaussian_kernel: bool = True,
                 sigma: Sequence[float] = (1.5, 1.5), kernel_size: Sequence[int] = (11, 11),
                 data_range: Optional[float] = None, k1: float = 0.01, k2: float = 0.03) -> Tensor:
    if data_range is None:
        data_range = max(preds.max() - preds.min(), target.max() - target.min())
    c1 = pow(k1 * data_range, 2)
    c2 = pow(k2 * data_range, 2)
    device = preds.device
    dtype = preds.dtype
    channel = preds.size(1)
    gauss_size = [int(3.5 * s + 0.5) * 2 + 1 for s in sigma]
    pad_h = (gauss_size[0] - 1) // 2
    pad_w = (gauss_size[1] - 1) // 2
    preds = F.pad(preds, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    target = F.pad(target, (pad_w, pad_w, pad_h, pad_h), mode="reflect")
    if gaussian_kernel:
        kernel = gaussian_kernel_2d(channel, gauss_size, sigma, dtype, device)
    else:
        kernel = torch.ones((1, 1, *kernel_size)) / torch.prod(Tensor(kernel_size))  # bug: tensor_no_device_in_forward

    stacked = torch.cat((preds, target, preds * preds, target * target, preds * target))
    outputs = F.conv2d(stacked, kernel, groups=channel)
    mu_p, mu_t, s_pp, s_tt, s_pt = outputs.split(preds.shape[0])
    mu_p_sq, mu_t_sq, mu_pt = mu_p.pow(2), mu_t.pow(2), mu_p * mu_t
    upper = 2 * (s_pt - mu_pt) + c2
    lower = (s_pp - mu_p_sq) + (s_tt - mu_t_sq) + c2
    ssim_map = ((2 * mu_pt + c1) * upper) / ((mu_p_sq + mu_t_sq + c1) * lower)
    return ssim_map.mean()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    img = torch.rand(4, 1, 64, 64, device=dev)
    print(ssim_compute(img, img * 0.9, gaussian_kernel=False))
