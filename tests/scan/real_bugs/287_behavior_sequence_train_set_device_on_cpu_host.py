# source: https://github.com/jbohnslav/deepethogram/pull/10
# also: https://github.com/jbohnslav/deepethogram/commit/9f4ed08b1f8ff4fe546d8c1d533cc4111505c652
# kind: other
# bug: the behaviour-classification training entry points chose `device` as `cuda:<gpu_id>` or, without CUDA, the CPU, but then called `torch.cuda.set_device(device)` unconditionally, so every training script crashed on CPU-only machines before the model was built; the merged PR only calls `set_device` when the device is not the CPU.
# split: test13
import logging
import os

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

log = logging.getLogger(__name__)


class TemporalConvSequence(nn.Module):
    def __init__(self, num_features=512, num_classes=6, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(num_features, hidden, 9, padding=4), nn.ReLU(),
            nn.Conv1d(hidden, num_classes, 9, padding=4),
        )

    def forward(self, x):
        return self.net(x)


def get_dataloaders(num_features=512, num_classes=6, seq_len=180):
    x = torch.randn(64, num_features, seq_len)
    y = (torch.rand(64, num_classes, seq_len) > 0.8).float()
    return {"train": DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True)}


def train_from_cfg(cfg: dict) -> nn.Module:
    rundir = os.getcwd()
    device = torch.device("cuda:" + str(cfg["gpu_id"]) if torch.cuda.is_available() else "cpu")
    torch.cuda.set_device(device)  # bug: other
    log.info("Training sequence model...")

    dataloaders = get_dataloaders()
    model = TemporalConvSequence().to(device)
    optimizer = optim.Adam(model.parameters(), lr=cfg["lr"])
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(cfg["epochs"]):
        for x, y in dataloaders["train"]:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        log.info("epoch %d loss %.4f", epoch, loss.item())
    torch.save(model.state_dict(), os.path.join(rundir, "sequence_weights.pt"))
    return model


if __name__ == "__main__":
    train_from_cfg({"gpu_id": 0, "lr": 1e-3, "epochs": 2})
