import torch
from torch import nn


class PairwiseDot(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("pairs", torch.triu_indices(n, n, offset=1), persistent=False)

    def forward(self, x):
        gram = x @ x.transpose(1, 2)
        return gram[:, self.pairs[0], self.pairs[1]]


class Spectrogram(nn.Module):
    def __init__(self, n_fft=512):
        super().__init__()
        self.n_fft = n_fft
        self.register_buffer("window", torch.hann_window(n_fft), persistent=False)

    def forward(self, wave):
        return torch.stft(wave, self.n_fft, window=self.window, return_complex=True).abs()
