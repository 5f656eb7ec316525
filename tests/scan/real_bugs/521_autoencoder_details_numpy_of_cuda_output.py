# source: https://github.com/KDD-OpenSource/DeepADoTS/issues/193
# kind: numpy_of_device_tensor
# bug: the autoencoder anomaly detector moved its network and every window to the configured GPU, and already copied the score input with .cpu(), but when recording the detailed reconstructions in predict it called output.data.numpy() on the CUDA output, so predict raised a TypeError whenever gpu was set; the fix (#194) copies the reconstructions and errors to the host with .cpu() first.
# split: test25
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class DeviceMixin:
    def __init__(self, gpu=None):
        self.gpu = gpu

    @property
    def device(self):
        use = torch.cuda.is_available() and self.gpu is not None
        return torch.device(f"cuda:{self.gpu}" if use else "cpu")

    def to_var(self, t):
        return t.float().to(self.device)


class WindowAE(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_in, 16), nn.Tanh(), nn.Linear(16, hidden))
        self.dec = nn.Sequential(nn.Linear(hidden, 16), nn.Tanh(), nn.Linear(16, n_in))

    def forward(self, x):
        flat = x.view(x.size(0), -1)
        return self.dec(self.enc(flat)).view(x.shape)


class AEDetector(DeviceMixin):
    def __init__(self, n_features, seq_len=10, gpu=None, details=True):
        super().__init__(gpu)
        self.seq_len = seq_len
        self.details = details
        self.net = WindowAE(n_features * seq_len, 4).to(self.device)

    def predict(self, data: np.ndarray):
        windows = [data[i:i + self.seq_len] for i in range(len(data) - self.seq_len + 1)]
        loader = DataLoader(windows, batch_size=16, shuffle=False)
        self.net.eval()
        scores, recon, errs = [], [], []
        for ts in loader:
            out = self.net(self.to_var(ts))
            err = nn.L1Loss(reduction="none")(out, self.to_var(ts))
            scores.append(err.sum(dim=(1, 2)).data.cpu().numpy())
            if self.details:
                recon.append(out.data.numpy())  # bug: numpy_of_device_tensor
                errs.append(err.data.cpu().numpy())
        return np.concatenate(scores), recon, errs


if __name__ == "__main__":
    series = np.random.randn(200, 3)
    det = AEDetector(n_features=3, gpu=0)
    s, _, _ = det.predict(series)
    print(s.shape)
