import lightning
import torch
import torch.nn.functional as F


class Classifier(lightning.LightningModule):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def metrics(self, batch):
        x, y = batch
        logits = self.net(x)
        return {"loss": F.cross_entropy(logits, y)}

    def training_step(self, batch, batch_idx):
        return self.metrics(batch)["loss"]

    def on_train_start(self):
        first = next(iter(self.trainer.train_dataloader))
        first = self.transfer_batch_to_device(first, self.device, 0)
        self.logger.log_hyperparams({}, self.metrics(first))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())
