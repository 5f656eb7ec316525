# source: https://github.com/hearai/hearai/pull/34
# also: https://github.com/hearai/hearai/commit/cb4c33af14d7dc3b1bd2fc2d575fa8329503163c
# kind: module_in_forward
# bug: the pretrained-transformer wrapper created its output nn.Linear inside forward and applied it to x.cpu(), so the layer was new and untrained on every call, never registered, and pulled the Lightning model's activations back to the host; the fix built the layer once in __init__ with a computed input size.
# split: test2
import pytorch_lightning as pl
import torch
import torch.nn as nn


class FrameEncoder(nn.Module):
    def __init__(self, in_features=2048, out_features=512):
        super().__init__()
        self.out_features = out_features
        self.backbone = nn.Sequential(nn.Conv1d(1, 4, 9, stride=4), nn.GELU())

    def forward(self, x):
        x = self.backbone(x.flatten(1).unsqueeze(1)).flatten(1)
        x = nn.Linear(in_features=x.shape[1], out_features=self.out_features)(x.cpu())  # bug: module_in_forward
        return x


class SignModel(pl.LightningModule):
    def __init__(self, n_classes=34):
        super().__init__()
        self.encoder = FrameEncoder()
        self.head = nn.Linear(512, n_classes)

    def training_step(self, batch, batch_idx):
        frames, labels = batch
        logits = self.head(self.encoder(frames))
        return nn.functional.cross_entropy(logits, labels)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-4)
