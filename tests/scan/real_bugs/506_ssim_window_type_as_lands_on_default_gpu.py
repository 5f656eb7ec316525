# source: https://github.com/Po-Hsun-Su/pytorch-ssim/issues/4
# kind: wrong_device_choice
# bug: the SSIM module and function built the Gaussian window on the CPU and converted it with .type_as(img1); for CUDA images this moves the window to the current default GPU rather than to the GPU holding img1 (the attempted set_device follow-up was not a valid tensor call), so SSIM on images living on cuda:1 failed with "tensors are on different GPUs"; the fix moves the window with .cuda(img1.get_device()) and only then casts its type.
# split: test24
from math import exp

import torch
import torch.nn.functional as F


def gaussian(window_size, sigma):
    g = torch.Tensor([exp(-(x - window_size // 2) ** 2 / float(2 * sigma ** 2)) for x in range(window_size)])
    return g / g.sum()


def create_window(window_size, channel):
    w1 = gaussian(window_size, 1.5).unsqueeze(1)
    w2 = w1.mm(w1.t()).float().unsqueeze(0).unsqueeze(0)
    return w2.expand(channel, 1, window_size, window_size).contiguous()


def _ssim(img1, img2, window, window_size, channel, size_average=True):
    pad = window_size // 2
    mu1 = F.conv2d(img1, window, padding=pad, groups=channel)
    mu2 = F.conv2d(img2, window, padding=pad, groups=channel)
    mu1_sq, mu2_sq, mu1_mu2 = mu1.pow(2), mu2.pow(2), mu1 * mu2
    s1 = F.conv2d(img1 * img1, window, padding=pad, groups=channel) - mu1_sq
    s2 = F.conv2d(img2 * img2, window, padding=pad, groups=channel) - mu2_sq
    s12 = F.conv2d(img1 * img2, window, padding=pad, groups=channel) - mu1_mu2
    c1, c2 = 0.01 ** 2, 0.03 ** 2
    ssim_map = ((2 * mu1_mu2 + c1) * (2 * s12 + c2)) / ((mu1_sq + mu2_sq + c1) * (s1 + s2 + c2))
    return ssim_map.mean() if size_average else ssim_map.mean(1).mean(1).mean(1)


class SSIMLoss(torch.nn.Module):
    def __init__(self, window_size=11, size_average=True):
        super().__init__()
        self.window_size = window_size
        self.size_average = size_average
        self.channel = 1
        self.window = create_window(window_size, self.channel)

    def forward(self, img1, img2):
        channel = img1.size(1)
        if channel == self.channel and self.window.type() == img1.type():
            window = self.window
        else:
            window = create_window(self.window_size, channel).type_as(img1)  # bug: wrong_device_choice
            self.window = window
            self.channel = channel
        return 1 - _ssim(img1, img2, window, self.window_size, channel, self.size_average)


if __name__ == "__main__":
    dev = torch.device("cuda:1" if torch.cuda.device_count() > 1 else "cpu")
    a = torch.rand(2, 3, 32, 32, device=dev)
    b = torch.rand(2, 3, 32, 32, device=dev)
    print(SSIMLoss()(a, b))
