# source: https://github.com/csteinmetz1/auraloss/issues/34
# kind: tensor_attribute_not_buffer
# bug: the STFT loss stored its mel filterbank as a plain tensor attribute (moved only if a device string was passed at construction), so loss.to("cuda") or a Lightning-managed move left the filterbank on the CPU and the matmul with CUDA spectrograms failed; the fix registers the filterbank as a buffer.
# split: test20
import math

import torch
import torch.nn as nn


def mel_filterbank(sample_rate, n_fft, n_mels):
    n_freqs = n_fft // 2 + 1
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)
    mels = torch.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.linspace(0, sample_rate / 2, n_freqs)
    lower, center, upper = hz[:-2, None], hz[1:-1, None], hz[2:, None]
    up = (bins[None] - lower) / (center - lower)
    down = (upper - bins[None]) / (upper - center)
    return torch.clamp(torch.minimum(up, down), min=0.0)


class STFTLoss(nn.Module):
    def __init__(self, fft_size=1024, hop_size=256, win_length=1024, sample_rate=None, scale=None,
                 n_bins=None, eps=1e-8, device=None):
        super().__init__()
        self.fft_size, self.hop_size, self.win_length = fft_size, hop_size, win_length
        self.window = torch.hann_window(win_length)
        self.scale = scale
        self.eps = eps
        self.device = device
        if scale == "mel":
            assert sample_rate is not None and n_bins <= fft_size
            fb = mel_filterbank(sample_rate, fft_size, n_bins)
            self.fb = fb.unsqueeze(0)  # bug: tensor_attribute_not_buffer
        if scale is not None and device is not None:
            self.fb = self.fb.to(self.device)

    def stft(self, x):
        spec = torch.stft(x, self.fft_size, self.hop_size, self.win_length, self.window, return_complex=True)
        return torch.sqrt(torch.clamp(spec.real ** 2 + spec.imag ** 2, min=self.eps))

    def forward(self, x, y):
        self.window = self.window.to(x.device)
        x_mag = self.stft(x.view(-1, x.size(-1)))
        y_mag = self.stft(y.view(-1, y.size(-1)))
        if self.scale is not None:
            x_mag = torch.matmul(self.fb, x_mag)
            y_mag = torch.matmul(self.fb, y_mag)
        sc = torch.norm(y_mag - x_mag, p="fro") / torch.norm(y_mag, p="fro")
        log_mag = torch.nn.functional.l1_loss(torch.log(x_mag), torch.log(y_mag))
        return sc + log_mag


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loss_fn = STFTLoss(sample_rate=44100, scale="mel", n_bins=128).to(device)
    est = torch.randn(2, 1, 44100, device=device, requires_grad=True)
    ref = torch.randn(2, 1, 44100, device=device)
    loss = loss_fn(est, ref)
    loss.backward()
    print(loss.item())
