# source: https://github.com/NREL/Wattile/issues/243
# also: https://github.com/NREL/Wattile/commit/4a77c258173a77fbf2c087a5e8b60b84553e7173
# kind: loaded_weights_not_moved
# bug: the load forecaster's run_validation rebuilt the RNN from the saved checkpoint (state dict mapped to the device, but loaded into a fresh CPU model) and evaluated it on a loader whose tensors had been placed on CUDA at dataset construction, so GPU validation failed ("input tensor at cuda:0 and parameter tensor at cpu"); the fix (PR #244) adds model.to(device) after loading.
# split: test2
import pathlib

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from forecast.nets import build_rnn


def make_loader(features: np.ndarray, targets: np.ndarray, batch_size: int) -> DataLoader:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = TensorDataset(torch.from_numpy(features).to(device), torch.from_numpy(targets).to(device))
    return DataLoader(ds, batch_size=batch_size, shuffle=False)


def load_model(cfg):
    model = build_rnn(cfg)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt = torch.load(pathlib.Path(cfg["exp_dir"]) / "torch_model", map_location=device)
    model.load_state_dict(ckpt["model_state_dict"])
    return model


@torch.no_grad()
def run_validation(cfg, val_loader):
    model = load_model(cfg)  # bug: loaded_weights_not_moved
    model.eval()
    preds, targets = [], []
    for feats, values in val_loader:
        out = model(feats.view(-1, cfg["seq_dim"], cfg["input_dim"]))
        preds.append(out.cpu().numpy())
        targets.append(values.cpu().numpy())
    return np.concatenate(preds), np.concatenate(targets)
