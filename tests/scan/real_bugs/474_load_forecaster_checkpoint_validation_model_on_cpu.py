# source: https://github.com/NREL/Wattile/pull/244
# kind: loaded_weights_not_moved
# bug: the validation entry point rebuilt the forecasting RNN and loaded its checkpoint with map_location=device, which copies the weights into the freshly constructed CPU module, and never moved the module, while the dataset tensors had already been put on CUDA; the first forward failed with input on cuda:0 and parameters on cpu; the fix calls model.to(device) before test_processing.
# split: test22
import json
import os
import pathlib

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class QuantileRNN(nn.Module):
    def __init__(self, input_dim, hidden_dim, num_layers, output_dim, device="cpu"):
        super().__init__()
        self.device = device
        self.rnn = nn.RNN(input_dim, hidden_dim, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_dim)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out[:, -1, :])


def init_model(configs):
    algo = configs["learning_algorithm"]
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return QuantileRNN(configs["input_dim"], algo["hidden_size"], algo["num_layers"],
                       len(algo["quantiles"]), device=device)


def load_model(configs):
    model = init_model(configs)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    path = pathlib.Path(configs["exp_dir"]) / "torch_model"
    checkpoint = torch.load(path, map_location=device)
    model.load_state_dict(checkpoint["model_state_dict"])
    return model, checkpoint["epoch_num"], checkpoint["n_iter"]


def make_loader(features: np.ndarray, targets: np.ndarray, batch_size=64):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ds = TensorDataset(torch.from_numpy(features).to(device), torch.from_numpy(targets).to(device))
    return DataLoader(ds, batch_size=batch_size, shuffle=False)


class ForecastModel:
    def __init__(self, configs):
        self.configs = configs
        self.file_prefix = configs["exp_dir"]

    def test_processing(self, val_loader, model, seq_dim, input_dim, device):
        preds, targets = [], []
        with torch.no_grad():
            model.eval()
            for feats, values in val_loader:
                outputs = model(feats.view(-1, seq_dim, input_dim))
                preds.append(outputs.cpu().numpy())
                targets.append(values.cpu().numpy())
        return np.concatenate(preds), np.concatenate(targets)

    def run_validation(self, val_loader):
        seq_dim = self.configs["lag_count"] + 1
        model, _, _ = load_model(self.configs)  # bug: loaded_weights_not_moved
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

        predictions, targets = self.test_processing(val_loader, model, seq_dim, self.configs["input_dim"], device)
        pd.DataFrame(predictions).to_csv(os.path.join(self.file_prefix, "predictions.csv"), index=False)
        errors = {"rmse": float(np.sqrt(np.mean((predictions[:, 0] - targets[:, 0]) ** 2)))}
        with open(os.path.join(self.file_prefix, "error_stats_val.json"), "w") as fp:
            json.dump(errors, fp, indent=1)


if __name__ == "__main__":
    cfg = {"exp_dir": "exp", "input_dim": 8, "lag_count": 23,
           "learning_algorithm": {"hidden_size": 20, "num_layers": 1, "quantiles": [0.1, 0.5, 0.9]}}
    feats = np.random.rand(500, 24 * 8).astype(np.float32)
    targs = np.random.rand(500, 1).astype(np.float32)
    ForecastModel(cfg).run_validation(make_loader(feats, targs))
