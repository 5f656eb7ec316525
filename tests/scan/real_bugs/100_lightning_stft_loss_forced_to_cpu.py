# source: https://github.com/sdatkinson/neural-amp-modeler/issues/164
# also: https://github.com/sdatkinson/neural-amp-modeler/commit/1d354a00dc75719e49624cb5af296ee66d5e5155
# kind: hardcoded_cpu
# bug: the LightningModule's multi-resolution STFT loss hard-coded device = "cpu" and copied the CUDA predictions and targets to the host on every training and validation step, slowing iterations by up to 6x; the fix (PR #165) computes the loss on the tensors' device and falls back to the CPU only if that fails.
# split: test2
import auraloss
import pytorch_lightning as pl
import torch
import torch.nn as nn


class AmpModel(pl.LightningModule):
    def __init__(self, net: nn.Module, stft_weight: float = 2e-4, lr: float = 4e-3):
        super().__init__()
        self.net = net
        self.stft_weight = stft_weight
        self.lr = lr
        self._stft = None

    def forward(self, x):
        return self.net(x)

    def _stft_loss(self, preds, targets):
        if self._stft is None:
            self._stft = auraloss.freq.MultiResolutionSTFTLoss()
        device = "cpu"  # not every backend has the STFT kernels
        return self._stft(preds.to(device), targets.to(device))  # bug: hardcoded_cpu

    def _loss(self, preds, targets):
        loss = nn.functional.mse_loss(preds, targets)
        if self.stft_weight > 0.0:
            loss = loss + self.stft_weight * self._stft_loss(preds, targets)
        return loss

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self._loss(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        preds = self(x)
        self.log_dict({"val_loss": self._loss(preds, y), "MRSTFT": self._stft_loss(preds, y)})

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)
