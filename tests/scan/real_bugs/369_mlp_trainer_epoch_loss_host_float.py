# source: https://github.com/lnccbrown/LANfactory/pull/120
# also: https://github.com/lnccbrown/LANfactory/commit/8a2721ad59160e31d33726c436febcba8de1b0f6
# kind: cpu_accumulator
# bug: the MLP trainer kept its per-epoch training-loss sum as a host float and added `float(loss)` after every step, which forced a GPU-to-host synchronisation each iteration and left an H100 mostly idle (the pinned, non-blocking batch copies were wasted); the merged fix keeps the sum as a zero tensor on the training device, adds `loss.detach()`, and reads it back once per epoch.
# split: test17
from time import time

import torch
import torch.nn as nn


class LAN(nn.Module):
    def __init__(self, input_dim=7, hidden=(100, 100, 120)):
        super().__init__()
        layers, last = [], input_dim
        for h in hidden:
            layers += [nn.Linear(last, h), nn.Tanh()]
            last = h
        self.net = nn.Sequential(*layers, nn.Linear(last, 1))

    def forward(self, x):
        return self.net(x)


class ModelTrainerTorchMLP:
    def __init__(self, model, train_dl, valid_dl, n_epochs=10, pin_memory=True):
        self.dev = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        self.model = model.to(self.dev)
        self.train_dl, self.valid_dl = train_dl, valid_dl
        self.n_epochs, self.pin_memory = n_epochs, pin_memory
        self.loss_fun = nn.HuberLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=2e-3)

    def train_and_evaluate(self):
        history = []
        self.model.train()
        for epoch in range(self.n_epochs):
            cnt, epoch_s_t = 0, time()
            epoch_loss_sum = 0.0
            for xb, yb in self.train_dl:
                if self.pin_memory and str(self.dev) == "cuda":
                    xb, yb = xb.cuda(non_blocking=True), yb.cuda(non_blocking=True)
                else:
                    xb, yb = xb.to(self.dev), yb.to(self.dev)
                loss = self.loss_fun(self.model(xb), yb)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                epoch_loss_sum += float(loss)  # bug: cpu_accumulator
                cnt += 1
            with torch.no_grad():
                val_loss = sum(self.loss_fun(self.model(xb.to(self.dev)), yb.to(self.dev)) for xb, yb in self.valid_dl)
            print(f"epoch {epoch} took {time() - epoch_s_t:.1f}s")
            history.append((epoch, epoch_loss_sum / max(cnt, 1), float(val_loss) / len(self.valid_dl)))
        return history
