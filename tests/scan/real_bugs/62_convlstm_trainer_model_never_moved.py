# source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/25
# also: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/commit/5aa2d22c15394bb3a67c3a28d84cecae91da0133
# kind: model_not_moved
# bug: the trainer kept the model it was handed as-is while sending every batch to DEVICE, so a CPU model met CUDA inputs; the fix stored model.to(DEVICE) instead.
# split: dev2
import argparse

import torch
from torch import nn

from nets import MemoryConvLSTM

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Fitter:
    def __init__(self, model: nn.Module, loader, epochs: int):
        self.model = model  # bug: model_not_moved
        self.loader = loader
        self.epochs = epochs
        self.loss_fn = nn.BCELoss()
        self.optim = torch.optim.Adam(model.parameters(), lr=5e-4)

    def run(self):
        for ep in range(self.epochs):
            for clip, target in self.loader:
                clip, target = clip.to(DEVICE), target.to(DEVICE)
                out = self.model(clip)
                loss = self.loss_fn(out.flatten(), target.flatten())
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    a = ap.parse_args()
    Fitter(MemoryConvLSTM(channels=1, hidden=32), loader=[], epochs=a.epochs).run()
