# Index tables and analysis windows made by torch factories default to the CPU like any other.
import torch
from torch import nn


class PairwiseDot(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.pairs = torch.triu_indices(n, n, offset=1)  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        gram = x @ x.transpose(1, 2)
        return gram[:, self.pairs[0], self.pairs[1]]


class Spectrogram(nn.Module):
    def __init__(self, n_fft=512):
        super().__init__()
        self.n_fft = n_fft
        self.window = torch.hann_window(n_fft)  # expect: code.tensor_attribute_not_buffer

    def forward(self, wave):
        return torch.stft(wave, self.n_fft, window=self.window, return_complex=True).abs()
