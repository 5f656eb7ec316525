# source: https://github.com/WUR-AI/AgML-CY-Bench/pull/236
# also: https://github.com/WUR-AI/AgML-CY-Bench/commit/a6127e59d61bd5488c95ae3f63e493f224ed1252
# kind: tensor_no_device_in_forward
# bug: the example crop-yield LSTM ran input transforms inside `forward`; the dekadal aggregation rebuilt each time series with `torch.full(...)` and no device, so the batch that the training loop had moved to CUDA reached the CUDA LSTM as a CPU tensor; the merged fix moves the stacked series to the model's device (`x_ts.to(device=self._device)`) just before the LSTM.
# split: test12
import torch
import torch.nn as nn


def to_dekadal(key, value, dekad_index, n_dekads):
    new_value = torch.full((value.shape[0], n_dekads), float("inf"), dtype=value.dtype)  # bug: tensor_no_device_in_forward
    for d in range(n_dekads):
        mask = dekad_index == d
        if value[:, mask].shape[1] == 0:
            new_value[:, d] = 0.0
        elif key == "tmax":
            new_value[:, d] = value[:, mask].max(dim=1).values
        elif key == "tmin":
            new_value[:, d] = value[:, mask].min(dim=1).values
        else:
            new_value[:, d] = value[:, mask].mean(dim=1)
    return new_value


def transform_to_dekadal(batch, dekad_index, n_dekads):
    return {k: to_dekadal(k, v, dekad_index, n_dekads) if v.dim() == 2 else v for k, v in batch.items()}


def stack_inputs(batch):
    ts = torch.cat([v.unsqueeze(2) for v in batch.values() if v.dim() == 2], dim=2)
    static = torch.cat([v.unsqueeze(1) for v in batch.values() if v.dim() == 1], dim=1)
    return ts, static


class YieldLSTM(nn.Module):
    def __init__(self, n_ts, n_static, hidden=64, layers=1, n_dekads=36):
        super().__init__()
        self.n_dekads = n_dekads
        self.register_buffer("dekad_index", torch.arange(365) // 11)
        self.lstm = nn.LSTM(n_ts, hidden, layers, batch_first=True)
        self.fc = nn.Linear(hidden + n_static, 1)

    def forward(self, batch):
        batch = transform_to_dekadal(batch, self.dekad_index, self.n_dekads)
        x_ts, x_static = stack_inputs(batch)
        out, _ = self.lstm(x_ts)
        return self.fc(torch.cat([out[:, -1], x_static], dim=1)).squeeze(-1)


def train_epoch(model, loader, optimizer, device, means, sds):
    model.train()
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        target = batch.pop("yield")
        inputs = {k: (v - means[k]) / sds[k] for k, v in batch.items()}
        loss = nn.functional.mse_loss(model(inputs), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
