# source: https://github.com/ourownstory/neural_prophet/pull/1010
# also: https://github.com/ourownstory/neural_prophet/commit/98c867ce7c1b68b309711ab222bcf6d5b2c33eec
# kind: tensor_no_device_in_forward
# bug: the forecaster assumed Lightning would place every tensor, but its quantile (pinball) loss rebuilt the quantile weights with `torch.tensor(self.quantiles)` and `torch.ones(...)` on the CPU at each call, so training on a GPU accelerator failed with a device mismatch; the merged fix creates them on `target.device` (and moves the other hand-made tensors to `self.device`).
# split: test15
import torch
import torch.nn as nn
import pytorch_lightning as pl


class PinballLoss(nn.Module):
    def __init__(self, loss_func, quantiles):
        super().__init__()
        self.loss_func = loss_func
        self.quantiles = quantiles

    def forward(self, outputs, target):
        target = target.repeat(1, 1, len(self.quantiles))
        differences = target - outputs
        base_losses = self.loss_func(outputs, target)
        positive_losses = torch.tensor(self.quantiles).unsqueeze(0).unsqueeze(0) * base_losses  # bug: tensor_no_device_in_forward
        negative_losses = (1 - torch.tensor(self.quantiles).unsqueeze(0).unsqueeze(0)) * base_losses
        pinball = torch.where(differences >= 0, positive_losses, negative_losses)
        multiplier = torch.ones(size=(1, 1, len(self.quantiles)))
        multiplier[:, :, 0] = 2
        return pinball * multiplier


class QuantileForecaster(pl.LightningModule):
    def __init__(self, n_lags=24, n_forecasts=12, quantiles=(0.5, 0.1, 0.9)):
        super().__init__()
        self.n_forecasts, self.quantiles = n_forecasts, list(quantiles)
        self.net = nn.Sequential(nn.Linear(n_lags, 64), nn.ReLU(), nn.Linear(64, n_forecasts * len(quantiles)))
        self.loss_fn = PinballLoss(nn.SmoothL1Loss(reduction="none"), self.quantiles)

    def forward(self, x):
        return self.net(x).view(x.shape[0], self.n_forecasts, len(self.quantiles))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.loss_fn(self(x), y.unsqueeze(-1)).sum(dim=2).mean()
        self.log("Loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-3)


def fit(loader):
    trainer = pl.Trainer(max_epochs=10, accelerator="auto")
    model = QuantileForecaster()
    trainer.fit(model, loader)
    return model
