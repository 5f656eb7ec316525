# source: https://github.com/sktime/pytorch-forecasting/pull/169
# kind: other
# bug: the shared training/validation step packed the padded target sequences with rnn.pack_padded_sequence(y, lengths=x["decoder_lengths"], ...), passing the decoder lengths straight from the batch, which Lightning had already moved to the GPU; since PyTorch 1.7 the lengths must be a CPU int64 tensor, so every GPU step with ragged decoder lengths failed; the fix passes x["decoder_lengths"].cpu().
# split: test25
from typing import Dict

import torch
import torch.nn as nn
from torch.nn.utils import rnn


class SeqForecaster(nn.Module):
    def __init__(self, n_features=4, hidden=16):
        super().__init__()
        self.rnn = nn.GRU(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)
        self.loss = nn.MSELoss()

    def forward(self, x: Dict[str, torch.Tensor]):
        out, _ = self.rnn(x["decoder_cont"])
        return self.head(out).squeeze(-1)

    def step(self, x: Dict[str, torch.Tensor], y: torch.Tensor, label="train"):
        lengths = x["decoder_lengths"]
        if (lengths < lengths.max()).any():
            y = rnn.pack_padded_sequence(y, lengths=lengths, batch_first=True, enforce_sorted=False)  # bug: other
        prediction = self(x)
        if isinstance(y, rnn.PackedSequence):
            y, _ = rnn.pad_packed_sequence(y, batch_first=True)
        loss = self.loss(prediction[:, : y.size(1)], y)
        return {"loss": loss, "label": label}

    def training_step(self, batch, batch_idx):
        x, y = batch
        return self.step(x, y, label="train")

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return self.step(x, y, label="val")


def move_batch(batch, device):
    x, y = batch
    return {k: v.to(device) for k, v in x.items()}, y.to(device)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SeqForecaster().to(dev)
    x = {"decoder_cont": torch.randn(8, 12, 4), "decoder_lengths": torch.randint(4, 13, (8,))}
    y = torch.randn(8, 12)
    out = model.training_step(move_batch((x, y), dev), 0)
    out["loss"].backward()
    print(float(out["loss"]))
