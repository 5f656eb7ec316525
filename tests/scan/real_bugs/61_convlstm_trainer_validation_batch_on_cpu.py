# source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/26
# also: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/commit/5049751aed49deaa0b076561b7b37f3527f9bcd1
# kind: eval_batch_not_moved
# bug: the trainer moved every training batch to the device but its validation step fed the CPU batch from the loader straight to the model; the fix added the same .to(DEVICE) calls there.
# split: dev2
import torch
from torch import nn

from settings import DEVICE
from seq_model import FrameForecaster


class Runner:
    def __init__(self, net: nn.Module, train_dl, valid_dl, lr: float = 1e-3):
        self.net = net.to(DEVICE)
        self.train_dl, self.valid_dl = train_dl, valid_dl
        self.crit = nn.MSELoss()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def fit(self, epochs: int):
        for _ in range(epochs):
            self.net.train()
            for frames, future in self.train_dl:
                frames, future = frames.to(DEVICE), future.to(DEVICE)
                loss = self.crit(self.net(frames), future)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            print("val", self.check())

    def check(self) -> float:
        self.net.eval()
        with torch.no_grad():
            frames, future = next(iter(self.valid_dl))
            pred = self.net(frames)  # bug: eval_batch_not_moved
            return self.crit(pred, future).item()


if __name__ == "__main__":
    Runner(FrameForecaster(), [], []).fit(1)
