# source: https://github.com/WenjieDu/PyPOTS/issues/3
# also: https://github.com/WenjieDu/PyPOTS/commit/d353924824c0e14204895607984e821e1be91a7d
# kind: cpu_accumulator
# bug: the time-gap (delta) helper for the recurrent imputation model built its per-step recurrence from `torch.zeros(1, n_features)` / `torch.ones(1, n_features)` on the CPU and combined them with rows of the missing mask, which lives on the GPU when the series tensor was given on CUDA; the fix creates those tensors with `device=missing_mask.device`.
# split: test18
import torch
import torch.nn as nn
from torch.utils.data import Dataset


def time_gaps(missing_mask):
    n_samples, n_steps, n_features = missing_mask.shape
    per_sample = []
    for m in missing_mask:
        gaps = []
        for t in range(n_steps):
            if t == 0:
                gaps.append(torch.zeros(1, n_features))  # bug: cpu_accumulator
            else:
                gaps.append(torch.ones(1, n_features) + (1 - m[t]) * gaps[-1])
        per_sample.append(torch.cat(gaps, dim=0).unsqueeze(0))
    return torch.cat(per_sample, dim=0)


class BidirectionalSeriesDataset(Dataset):
    def __init__(self, X):
        mask = (~torch.isnan(X)).float()
        values = torch.nan_to_num(X)
        self.fwd = {"X": values, "mask": mask, "delta": time_gaps(mask)}
        b_mask = torch.flip(mask, dims=[1])
        self.bwd = {"X": torch.flip(values, dims=[1]), "mask": b_mask, "delta": time_gaps(b_mask)}

    def __len__(self):
        return self.fwd["X"].shape[0]

    def __getitem__(self, i):
        return (self.fwd["X"][i], self.fwd["mask"][i], self.fwd["delta"][i],
                self.bwd["X"][i], self.bwd["mask"][i], self.bwd["delta"][i])


class DecayRNN(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.decay = nn.Linear(n_features, hidden)
        self.cell = nn.GRUCell(2 * n_features, hidden)
        self.out = nn.Linear(hidden, n_features)

    def forward(self, x, mask, delta):
        h = x.new_zeros(x.shape[0], self.cell.hidden_size)
        preds = []
        for t in range(x.shape[1]):
            h = h * torch.exp(-torch.relu(self.decay(delta[:, t])))
            est = self.out(h)
            filled = mask[:, t] * x[:, t] + (1 - mask[:, t]) * est
            h = self.cell(torch.cat([filled, mask[:, t]], dim=1), h)
            preds.append(est)
        return torch.stack(preds, 1)


if __name__ == "__main__":
    series = torch.randn(16, 24, 5, device="cuda")
    series[series > 1.2] = float("nan")
    ds = BidirectionalSeriesDataset(series)
    model = DecayRNN(5).to("cuda")
    x, m, d, *_ = ds[0]
    print(model(x[None], m[None], d[None]).shape)
