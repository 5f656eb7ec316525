# source: https://github.com/Clay-foundation/model/pull/95
# also: https://github.com/Clay-foundation/model/commit/25f83e62863da5e5ba4a0a8625a8ef8d1b2afd2a
# also: https://github.com/Clay-foundation/model/commit/a61185f126969f3a5bb87996af12cef8ce6420e4
# kind: attribute_not_buffer
# bug: the masked autoencoder kept its fixed sin/cos position and band encodings as plain tensor attributes, moved once in __init__ to a device passed in by the caller ("cuda" = cuda:0), so when Lightning placed each replica on its own GPU the encodings stayed behind and the addition failed with "found at least two devices"; the fix registers them with register_buffer(persistent=False) and drops the device argument.
# split: test8
import lightning as L
import torch
import torch.nn as nn


def sincos_2d(h, w, dim, temperature=10000):
    y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    omega = 1.0 / temperature ** (torch.arange(dim // 4) / (dim // 4 - 1))
    y, x = y.flatten()[:, None] * omega[None], x.flatten()[:, None] * omega[None]
    return torch.cat((x.sin(), x.cos(), y.sin(), y.cos()), dim=1)


class PatchEncoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, device):
        super().__init__()
        self.device = device
        side = image_size // patch_size
        self.patch_embed = nn.Linear(patch_size * patch_size, dim)
        self.pos_encoding = sincos_2d(side, side, dim).to(self.device).requires_grad_(False)  # bug: attribute_not_buffer
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 8, batch_first=True), 4)

    def forward(self, patches):
        tokens = self.patch_embed(patches) + self.pos_encoding
        return self.blocks(tokens)


class GeoMAE(L.LightningModule):
    def __init__(self, image_size=256, patch_size=16, dim=256):
        super().__init__()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.encoder = PatchEncoder(image_size, patch_size, dim, device=device)
        self.head = nn.Linear(dim, patch_size * patch_size)

    def training_step(self, batch, batch_idx):
        recon = self.head(self.encoder(batch["patches"]))
        loss = nn.functional.mse_loss(recon, batch["patches"])
        self.log("train/loss", loss, sync_dist=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


if __name__ == "__main__":
    trainer = L.Trainer(accelerator="gpu", devices=2, strategy="ddp", max_epochs=1)
    trainer.fit(GeoMAE(), train_dataloaders=None)
