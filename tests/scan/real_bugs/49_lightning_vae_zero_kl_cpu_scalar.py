# source: https://github.com/Lightning-AI/pytorch-lightning/issues/7023
# kind: tensor_no_device_in_forward
# bug: in a user's LightningModule the loss helper returned torch.tensor(0) as the KL term when the model gave no KL, a CPU scalar next to CUDA ones, so stacking the logged values failed; the user fixed the placeholder's device after a maintainer's debugging advice.
# split: test2
import pytorch_lightning as pl
import torch


class SwitchingAutoencoder(pl.LightningModule):
    def __init__(self, dim=32, beta=0.5):
        super().__init__()
        self.enc = torch.nn.Linear(dim, 8)
        self.dec = torch.nn.Linear(8, dim)
        self.beta = beta
        self.kl_terms = []

    def split_losses(self, recon, kld):
        if kld is None:
            kl_part = torch.tensor(0)  # bug: tensor_no_device_in_forward
            total = recon
        else:
            kl_part = kld
            total = recon + self.beta * kld
        return total, kl_part

    def training_step(self, batch, batch_idx):
        z = self.enc(batch)
        recon = torch.nn.functional.mse_loss(self.dec(z), batch)
        kld = z.pow(2).mean() if batch_idx % 2 else None
        total, kl_part = self.split_losses(recon, kld)
        self.kl_terms.append(kl_part.float())
        return total

    def on_train_epoch_end(self):
        self.log("kl_mean", torch.stack(self.kl_terms).mean())
        self.kl_terms.clear()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.01)
