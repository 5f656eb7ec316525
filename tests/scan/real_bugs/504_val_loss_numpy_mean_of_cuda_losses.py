# source: https://github.com/CUNY-CL/yoyodyne/pull/187
# kind: numpy_of_device_tensor
# bug: the Lightning encoder-decoder returned each validation step's loss as a CUDA tensor and validation_epoch_end averaged the collected losses with numpy.mean, which has to convert them to host arrays and fails on GPU ("can't convert cuda:0 device type tensor to numpy"); the fix stores the per-step validation loss with .cpu() before numpy averages it.
# split: test24
from typing import Dict, List

import numpy
import pytorch_lightning as pl
import torch
import torch.nn as nn


class Seq2SeqModule(pl.LightningModule):
    def __init__(self, vocab=50, hidden=64, pad_idx=0):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden, padding_idx=pad_idx)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab)
        self.loss_func = nn.CrossEntropyLoss(ignore_index=pad_idx)

    def forward(self, source):
        h, _ = self.rnn(self.embed(source))
        return self.proj(h)

    def training_step(self, batch, batch_idx):
        source, target = batch
        logits = self(source).transpose(1, 2)
        loss = self.loss_func(logits, target)
        self.log("train_loss", loss, on_step=False, on_epoch=True)
        return loss

    def validation_step(self, batch, batch_idx) -> Dict:
        source, target = batch
        predictions = self(source)
        accuracy = (predictions.argmax(-1) == target).float().mean().item()
        predictions = torch.narrow(predictions.transpose(1, 2), 2, 0, target.size(1))
        loss = self.loss_func(predictions, target)
        items = {"accuracy": accuracy}
        items.update({"val_loss": loss})  # bug: numpy_of_device_tensor
        return items

    def validation_epoch_end(self, outputs: List[Dict]) -> Dict:
        avg_val_loss = numpy.mean([o["val_loss"] for o in outputs])
        avg_acc = numpy.mean([o["accuracy"] for o in outputs])
        metrics = {"loss": avg_val_loss, "accuracy": avg_acc}
        for name, value in metrics.items():
            self.log(f"val_{name}", value, prog_bar=True)
        return metrics

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


if __name__ == "__main__":
    model = Seq2SeqModule()
    src = torch.randint(1, 50, (4, 12))
    tgt = torch.randint(1, 50, (4, 12))
    out = model.validation_step((src, tgt), 0)
    print(model.validation_epoch_end([out]))
