# source: https://github.com/JetBrains-Research/code2seq/pull/52
# also: https://github.com/JetBrains-Research/code2seq/commit/9e1699983c06c0388b5107a32caa990418834b45
# kind: cpu_accumulator
# bug: the code2class LightningModule summed the per-batch confusion matrices (computed from CUDA logits) into an epoch accumulator made with torch.zeros(num_classes, num_classes) on the CPU, which fails on GPU; the fix in the same PR creates the accumulator with device=self.device.
# split: test6
import pytorch_lightning as pl
import torch
import torch.nn as nn
import torch.nn.functional as F


def confusion_matrix(preds, labels):
    n = int(max(preds.max(), labels.max()).item()) + 1
    idx = labels * n + preds
    return torch.bincount(idx, minlength=n * n).view(n, n)


class PathContextClassifier(pl.LightningModule):
    def __init__(self, encoder, hidden, num_classes, lr=1e-3):
        super().__init__()
        self.encoder = encoder
        self.head = nn.Linear(hidden, num_classes)
        self.num_classes = num_classes
        self.lr = lr

    def forward(self, contexts):
        return self.head(self.encoder(contexts))

    def validation_step(self, batch, batch_idx):
        contexts, labels = batch
        logits = self(contexts)
        loss = F.cross_entropy(logits, labels)
        with torch.no_grad():
            stats = confusion_matrix(logits.argmax(-1), labels)
        return {"val_loss": loss, "statistic": stats}

    def validation_epoch_end(self, outputs):
        with torch.no_grad():
            mean_loss = torch.stack([o["val_loss"] for o in outputs]).mean()
            total = torch.zeros(self.num_classes, self.num_classes, requires_grad=False)  # bug: cpu_accumulator
            for o in outputs:
                k, _ = o["statistic"].shape
                total[:k, :k] += o["statistic"]
            acc = total.trace() / total.sum()
        self.log_dict({"val/loss": mean_loss, "val/accuracy": acc})

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)
