# source: https://github.com/braindecode/braindecode/pull/381
# also: https://github.com/braindecode/braindecode/commit/e9423f46ccc1072c930cce621362770c4753c151
# kind: eval_batch_not_moved
# bug: the EEG toolbox's `predict_trials` helper iterated a cropped dataset with its own DataLoader and passed each CPU window straight to the module, which the classifier wrapper had trained on the GPU, so trial-wise prediction failed whenever the model was on CUDA (the tests only ran on the CPU); the merged fix reads the module's device once and moves every window there.
# split: test13
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class WindowsDataset(Dataset):
    def __init__(self, n_trials=10, windows_per_trial=4, n_chans=22, n_times=500):
        self.X = torch.randn(n_trials * windows_per_trial, n_chans, n_times)
        self.y = torch.randint(0, 4, (n_trials,)).repeat_interleave(windows_per_trial)
        self.i_window = torch.arange(windows_per_trial).repeat(n_trials)

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i], self.i_window[i]


class ShallowConvNet(nn.Module):
    def __init__(self, n_chans=22, n_classes=4):
        super().__init__()
        self.temporal = nn.Conv2d(1, 40, (1, 25))
        self.spatial = nn.Conv2d(40, 40, (n_chans, 1), bias=False)
        self.bn = nn.BatchNorm2d(40)
        self.pool = nn.AvgPool2d((1, 75), stride=(1, 15))
        self.classifier = nn.LazyLinear(n_classes)

    def forward(self, x):
        x = self.bn(self.spatial(self.temporal(x.unsqueeze(1))))
        x = torch.log(torch.clamp(self.pool(x * x), min=1e-6))
        return self.classifier(x.flatten(1))


def predict_per_trial(module, dataset, return_targets=True):
    loader = DataLoader(dataset=dataset, batch_size=1, shuffle=False)
    all_preds, all_ys, all_inds = [], [], []
    with torch.no_grad():
        for X, y, ind in loader:
            preds = module(X)  # bug: eval_batch_not_moved
            all_preds.extend(preds.cpu().numpy().astype(np.float32))
            all_ys.extend(y.cpu().numpy())
            all_inds.extend(ind.tolist())
    preds = np.stack(all_preds)
    starts = np.flatnonzero(np.array(all_inds) == 0)
    per_trial = np.stack([preds[s : s + (starts[1] - starts[0])].mean(0) for s in starts])
    if return_targets:
        return per_trial, np.array(all_ys)[starts]
    return per_trial


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ds = WindowsDataset()
    model = ShallowConvNet()
    model(ds[0][0].unsqueeze(0))
    model.to(device).eval()
    trial_preds, trial_ys = predict_per_trial(model, ds)
    print((trial_preds.argmax(1) == trial_ys).mean())
