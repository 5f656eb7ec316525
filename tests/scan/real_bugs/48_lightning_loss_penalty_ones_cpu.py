# source: https://github.com/Lightning-AI/pytorch-lightning/issues/17299
# kind: tensor_no_device_in_forward
# bug: a user's custom loss, called from a LightningModule's training_step, built a per-sample weight with torch.ones(batch, dtype=float32) on the CPU and multiplied it with CUDA predictions; a maintainer fixed it by passing device=y_pred.device.
# split: test2
import pytorch_lightning as pl
import torch


def weighted_direction_loss(pred, target, scale=2.0):
    weight = torch.ones(pred.size(0), dtype=torch.float32)  # bug: tensor_no_device_in_forward
    wrong_side = torch.sign(pred) != torch.sign(target)
    weight[wrong_side.squeeze(-1)] = scale
    return (weight * (pred - target).squeeze(-1) ** 2).mean()


class ReturnModel(pl.LightningModule):
    def __init__(self, n_features=8):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(n_features, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = weighted_direction_loss(self.net(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
