# source: https://github.com/awslabs/gluonts/pull/1230
# kind: numpy_of_device_tensor
# bug: the PyTorch predictor stacked inference batches onto its configured device but the registered predict-to-numpy helper returned `net(*inputs).data.numpy()`, which raises for CUDA outputs, so forecasting never worked with the network on a GPU; the fix copies the output to the host with .cpu() before .numpy().
# split: test21
from functools import singledispatch
from typing import Iterator, List

import numpy as np
import torch
import torch.nn as nn


@singledispatch
def predict_to_numpy(prediction_net, inputs) -> np.ndarray:
    raise NotImplementedError


@predict_to_numpy.register(nn.Module)
def _(prediction_net: nn.Module, inputs) -> np.ndarray:
    return prediction_net(*inputs).data.numpy()  # bug: numpy_of_device_tensor


class SampleForecaster(nn.Module):
    def __init__(self, context_length=24, prediction_length=12, num_samples=50):
        super().__init__()
        self.num_samples = num_samples
        self.prediction_length = prediction_length
        self.mlp = nn.Sequential(nn.Linear(context_length, 64), nn.ReLU(), nn.Linear(64, 2 * prediction_length))

    def forward(self, past_target):
        loc, log_scale = self.mlp(past_target).chunk(2, dim=-1)
        eps = torch.randn(past_target.shape[0], self.num_samples, self.prediction_length, device=past_target.device)
        return loc[:, None] + log_scale.exp()[:, None] * eps


def batchify(rows: List[np.ndarray], device: torch.device):
    return (torch.as_tensor(np.stack(rows), dtype=torch.float32, device=device),)


class TorchPredictor:
    def __init__(self, prediction_net: nn.Module, batch_size: int, device: torch.device):
        self.prediction_net = prediction_net
        self.batch_size = batch_size
        self.device = device

    def predict(self, series: List[np.ndarray]) -> Iterator[np.ndarray]:
        self.prediction_net.eval()
        with torch.no_grad():
            for start in range(0, len(series), self.batch_size):
                inputs = batchify(series[start:start + self.batch_size], self.device)
                outputs = predict_to_numpy(self.prediction_net, inputs)
                yield from outputs


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = SampleForecaster().to(device)
    predictor = TorchPredictor(net, batch_size=4, device=device)
    data = [np.random.randn(24).astype(np.float32) for _ in range(10)]
    forecasts = list(predictor.predict(data))
    print(len(forecasts), forecasts[0].shape)
