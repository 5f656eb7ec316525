# source: https://github.com/hugoycj/NeuralBaker/pull/1
# kind: eval_batch_not_moved
# bug: the validation step of the NeRF system indexed the dataset's `all_images` tensor, which stayed on the CPU, with the CUDA image index of the validation batch (training used rays already on the device), so training crashed when it reached the validation loop; the fix moves the validation images to the device before indexing.
# split: test9
import pytorch_lightning as pl
import torch
import torch.nn.functional as F

from baker.models import make_field
from baker.datasets import MultiViewDataset


class BakerSystem(pl.LightningModule):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.model = make_field(config.model)

    def setup(self, stage=None):
        self.train_set = MultiViewDataset(self.config.data, split="train")
        self.val_set = MultiViewDataset(self.config.data, split="val")
        self.train_rays = self.train_set.all_rays.to(self.device)
        self.train_rgb = self.train_set.all_images.view(-1, 3).to(self.device)

    def training_step(self, batch, batch_idx):
        idx = torch.randint(0, self.train_rays.shape[0], (self.config.batch_rays,), device=self.device)
        out = self.model(self.train_rays[idx])
        loss = F.mse_loss(out["rgb"], self.train_rgb[idx])
        self.log("train/loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        index = batch["index"].to(self.device)
        rays = self.val_set.rays_of(index).to(self.device)
        rgb_gt = self.val_set.all_images[index].view(-1, 3)  # bug: eval_batch_not_moved
        out = self.model.render_chunked(rays)
        psnr = -10.0 * torch.log10(F.mse_loss(out["rgb"], rgb_gt))
        self.log("val/psnr", psnr)
        return psnr

    def configure_optimizers(self):
        return torch.optim.Adam(self.model.parameters(), lr=self.config.lr)
