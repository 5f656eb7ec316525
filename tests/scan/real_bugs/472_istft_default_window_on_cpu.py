# source: https://github.com/pytorch/audio/pull/242
# kind: tensor_no_device_in_forward
# bug: the inverse-STFT helper built its default rectangular window with torch.ones(win_length), which always lives on the CPU, so reconstructing a CUDA spectrogram without passing a window failed in the overlap-add convolution; the fix creates the default window on the STFT matrix's device and dtype.
# split: test22
from typing import Optional

import torch
import torch.nn as nn


def istft(stft_matrix: torch.Tensor, n_fft: int, hop_length: Optional[int] = None,
          win_length: Optional[int] = None, window: Optional[torch.Tensor] = None,
          center: bool = True, length: Optional[int] = None) -> torch.Tensor:
    if stft_matrix.dim() == 3:
        stft_matrix = stft_matrix.unsqueeze(0)
    if win_length is None:
        win_length = n_fft
    if hop_length is None:
        hop_length = win_length // 4
    assert 0 < hop_length <= win_length <= n_fft

    if window is None:
        window = torch.ones(win_length)  # bug: tensor_no_device_in_forward
    if win_length != n_fft:
        left = (n_fft - win_length) // 2
        window = torch.nn.functional.pad(window, (left, n_fft - win_length - left))

    spec = torch.view_as_complex(stft_matrix.contiguous())
    frames = torch.fft.irfft(spec.transpose(1, 2), n=n_fft)
    n_frames = frames.size(1)
    frames = frames * window.view(1, 1, n_fft)

    expected_len = n_fft + hop_length * (n_frames - 1)
    y = torch.nn.functional.fold(frames.transpose(1, 2), output_size=(1, expected_len),
                                 kernel_size=(1, n_fft), stride=(1, hop_length)).view(-1, expected_len)
    win_sq = window.pow(2).view(1, n_fft, 1).expand(1, n_fft, n_frames)
    envelope = torch.nn.functional.fold(win_sq, output_size=(1, expected_len),
                                        kernel_size=(1, n_fft), stride=(1, hop_length)).view(1, expected_len)
    start = n_fft // 2 if center else 0
    end = expected_len - n_fft // 2 if center else expected_len
    if length is not None:
        end = start + length
    return y[:, start:end] / envelope[:, start:end].clamp_min(1e-11)


class SpectralMaskEnhancer(nn.Module):
    def __init__(self, n_fft=512, hop=128):
        super().__init__()
        self.n_fft = n_fft
        self.hop = hop
        bins = n_fft // 2 + 1
        self.mask_net = nn.Sequential(nn.Linear(bins, 256), nn.ReLU(), nn.Linear(256, bins), nn.Sigmoid())

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=torch.hann_window(self.n_fft, device=wav.device),
                          return_complex=True)
        mag = spec.abs()
        mask = self.mask_net(mag.transpose(1, 2)).transpose(1, 2)
        enhanced = torch.view_as_real(spec * mask)
        return istft(enhanced, self.n_fft, self.hop, length=wav.shape[-1])


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SpectralMaskEnhancer().to(device)
    noisy = torch.randn(4, 16000, device=device)
    clean = model(noisy)
    print(clean.shape)
