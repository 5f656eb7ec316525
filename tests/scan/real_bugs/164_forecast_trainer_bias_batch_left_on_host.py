# source: https://github.com/TakuyaShintate/tsts/pull/54
# also: https://github.com/TakuyaShintate/tsts/commit/0712cfc0926326eaebcfc80b8651f126e11f9f0c
# kind: inputs_not_moved
# bug: the forecasting trainer moved the lookback window, targets and masks of every batch to its device but passed the per-sample bias tensor to the model straight from the loader, so training on the GPU failed; the fix adds bias = bias.to(self.device) in the training loop (and likewise in the validation loop and the forecaster's predict).
# split: test6
import torch
import torch.nn as nn


class Seq2SeqForecaster(nn.Module):
    def __init__(self, n_in, n_out, hidden=64, horizon=24):
        super().__init__()
        self.horizon = horizon
        self.enc = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_out * horizon)
        self.n_out = n_out

    def forward(self, X, bias, X_mask):
        _, h = self.enc(X * X_mask)
        out = self.head(h[-1]).view(X.shape[0], self.horizon, self.n_out)
        return out + bias[:, -1:]


class WindowTrainer:
    def __init__(self, model, loss_fn, optimizer, train_loader, valid_loader, device):
        self.model = model.to(device)
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.valid_loader = valid_loader
        self.device = device

    def on_train(self):
        self.model.train()
        losses = []
        for X, y, bias, X_mask, y_mask in self.train_loader:
            X = X.to(self.device)
            y = y.to(self.device)
            X_mask = X_mask.to(self.device)
            y_mask = y_mask.to(self.device)
            Z = self.model(X, bias, X_mask)  # bug: inputs_not_moved
            loss = self.loss_fn(Z * y_mask, y * y_mask)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            losses.append(loss.item())
        return losses

