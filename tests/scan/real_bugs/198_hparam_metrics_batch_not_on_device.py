# source: https://github.com/LarsKue/lightning-trainable/issues/16
# also: https://github.com/LarsKue/lightning-trainable/commit/89e36477516f49aa07ce4a01b91b59671413d87a
# kind: eval_batch_not_moved
# bug: to log hyperparameters together with initial metrics, the Lightning module's on_train_start hook pulled one batch straight from the validation dataloader and passed it to compute_metrics on the model that Lightning had already moved to the GPU; unlike the batches of the training and validation loops, this hand-fetched batch was never transferred, so it stayed on the CPU; the fix calls self.transfer_batch_to_device(batch, self.device, 0) first.
# split: test7
import warnings

import lightning
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainable(lightning.LightningModule):
    def __init__(self, net: nn.Module, train_data=None, val_data=None, lr=1e-3):
        super().__init__()
        self.net = net
        self.train_data = train_data
        self.val_data = val_data
        self.lr = lr

    def compute_metrics(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        return {"loss": F.cross_entropy(logits, y), "accuracy": (logits.argmax(-1) == y).float().mean()}

    def training_step(self, batch, batch_idx):
        metrics = self.compute_metrics(batch, batch_idx)
        self.log_dict({f"training/{k}": v for k, v in metrics.items()})
        return metrics["loss"]

    def validation_step(self, batch, batch_idx):
        metrics = self.compute_metrics(batch, batch_idx)
        self.log_dict({f"validation/{k}": v for k, v in metrics.items()})

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)

    def on_train_start(self) -> None:
        if self.val_data is not None:
            prefix = "validation"
            loader = self.trainer.val_dataloaders
            test_batch = next(iter(loader))
        elif self.train_data is not None:
            prefix = "training"
            test_batch = next(iter(self.trainer.train_dataloader))
        else:
            warnings.warn("no data to compute initial metrics")
            return
        metrics = self.compute_metrics(test_batch, 0)  # bug: eval_batch_not_moved
        self.logger.log_hyperparams(
            {"lr": self.lr}, {f"{prefix}/{k}": v for k, v in metrics.items()}
        )
