# An inverse-STFT helper that forward() calls: its default window is made on the CPU and meets frames
# computed from the (GPU) input.
import torch
from torch import nn


def overlap_add(frames_in, n_fft, window=None):
    if window is None:
        window = torch.ones(n_fft)  # expect: code.tensor_created_without_device
    frames = torch.fft.irfft(frames_in, n=n_fft)
    return frames * window.view(1, 1, n_fft)


class Synth(nn.Module):
    def __init__(self, n_fft=256):
        super().__init__()
        self.n_fft = n_fft
        self.net = nn.Linear(n_fft // 2 + 1, n_fft // 2 + 1)

    def forward(self, spec):
        return overlap_add(self.net(spec), self.n_fft)
