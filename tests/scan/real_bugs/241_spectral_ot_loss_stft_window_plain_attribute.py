# source: https://github.com/bernardo-torres/spectral-optimal-transport/issues/3
# also: https://github.com/bernardo-torres/spectral-optimal-transport/commit/42eac347e0ea8a8734266b0d6db6628fd9355e8a
# kind: attribute_not_buffer
# bug: the spectral optimal-transport loss built its STFT front end with a `device` argument defaulting to "cpu" and kept the analysis window as a plain tensor attribute (`torch.tensor(get_window(...)).to(device)`); calling `loss.to("cuda")` moved the registered bin-position buffer but not the window (nor the stored "cpu" device string), so CUDA signals met a CPU window in `torch.stft` and raised "Expected all tensors to be on the same device"; the fix registers the window as a buffer and follows the input's device in forward.
# split: test11
import numpy as np
import torch
import torch.nn as nn


def hann_window_np(n):
    k = np.arange(n)
    return 0.5 - 0.5 * np.cos(2.0 * np.pi * k / n)


class SpectrumFrontEnd(nn.Module):
    def __init__(self, n_fft=1024, hop=256, device="cpu"):
        super().__init__()
        self.n_fft = n_fft
        self.hop = hop
        self.window = torch.tensor(hann_window_np(n_fft), dtype=torch.float32).to(device)  # bug: attribute_not_buffer

    def bin_positions(self):
        return torch.linspace(0, 1, self.n_fft // 2 + 1)

    def forward(self, x):
        spec = torch.stft(x, n_fft=self.n_fft, hop_length=self.hop, window=self.window, return_complex=True)
        return spec.abs()


class SpectralTransportLoss(nn.Module):
    def __init__(self, n_fft=1024, hop=256, eps=1e-8, device="cpu"):
        super().__init__()
        self.front_end = SpectrumFrontEnd(n_fft, hop, device=device)
        self.register_buffer("positions", self.front_end.bin_positions())
        self.eps = eps

    def _quantiles(self, spec):
        mass = spec / (spec.sum(dim=-2, keepdim=True) + self.eps)
        return torch.cumsum(mass, dim=-2)

    def forward(self, x, y):
        cx = self._quantiles(self.front_end(x))
        cy = self._quantiles(self.front_end(y))
        w = self.positions.view(1, -1, 1)
        return ((cx - cy).abs() * w).mean()


def train_step(model, batch, optimizer, loss_fn, device):
    noisy, clean = batch[0].to(device), batch[1].to(device)
    loss = loss_fn(model(noisy), clean)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Conv1d(1, 16, 9, padding=4), nn.Tanh(), nn.Conv1d(16, 1, 9, padding=4)).to(device)
    loss_fn = SpectralTransportLoss().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    batch = (torch.randn(4, 1, 16000), torch.randn(4, 1, 16000))
    noisy, clean = batch
    print(train_step(lambda t: model(t).squeeze(1), (noisy, clean.squeeze(1)), opt, loss_fn, device))
