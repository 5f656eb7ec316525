# source: https://github.com/JunwenBai/C-GMVAE/pull/1
# also: https://github.com/JunwenBai/C-GMVAE/commit/2c5d8959a3d182df12fbbe6d4b4f9d1b8bfb26b8
# kind: other
# bug: the multi-label trainer collected each step's predictions and labels (CUDA tensors) in Python lists and turned them into a NumPy array for logging, which fails with "can't convert cuda:0 device type tensor to numpy"; the merged fix copies every element to the host with `.cpu().detach().numpy()` first.
# split: test15
import numpy as np
import torch
import torch.nn as nn


class LabelEncoder(nn.Module):
    def __init__(self, n_feat, n_labels, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU(), nn.Linear(hidden, n_labels))

    def forward(self, x):
        return torch.sigmoid(self.net(x))


def micro_f1(pred, label):
    tp = float((pred * label).sum())
    return 2 * tp / (float(pred.sum()) + float(label.sum()) + 1e-9)


def train(loader, n_feat, n_labels, epochs=5, check_freq=50):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = LabelEncoder(n_feat, n_labels).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    temp_pred, temp_label = [], []
    for _ in range(epochs):
        for feat, label in loader:
            feat, label = feat.to(device).float(), label.to(device).float()
            prob = model(feat)
            loss = nn.functional.binary_cross_entropy(prob, label)
            opt.zero_grad()
            loss.backward()
            opt.step()
            temp_pred.append((prob > 0.5).float())
            temp_label.append(label)
            step += 1
            if step % check_freq == 0:
                preds = np.reshape(np.array(temp_pred), (-1))  # bug: other
                labels = np.reshape(np.array(temp_label), (-1))
                print(step, loss.item(), micro_f1(preds, labels))
                temp_pred, temp_label = [], []
    return model
