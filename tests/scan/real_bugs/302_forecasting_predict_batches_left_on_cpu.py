# source: https://github.com/unit8co/darts/pull/388
# also: https://github.com/unit8co/darts/commit/40c229479e16cd6ee43d6932e13c9976685ba48f
# kind: eval_batch_not_moved
# bug: the torch forecasting wrapper moved its network to `self.device` and moved every training and validation batch there, but `predict_from_dataset` fed the DataLoader's input window straight to the network, so predicting with a model on CUDA failed with a CPU input ("mat1 is on CPU"); the fix adds `.to(self.device)` to the prediction batch.
# split: test13
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class BlockForecaster(nn.Module):
    def __init__(self, input_chunk_length, output_chunk_length, dim=1, width=256):
        super().__init__()
        self.out_len, self.dim = output_chunk_length, dim
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(input_chunk_length * dim, width), nn.ReLU(),
                                 nn.Linear(width, output_chunk_length * dim))

    def forward(self, x):
        return self.net(x).view(x.shape[0], self.out_len, self.dim)


class TorchForecastingModel:
    def __init__(self, input_chunk_length=24, output_chunk_length=12, batch_size=32, torch_device_str=None):
        self.device = torch.device(torch_device_str or ("cuda:0" if torch.cuda.is_available() else "cpu"))
        self.model = BlockForecaster(input_chunk_length, output_chunk_length).to(self.device)
        self.batch_size = batch_size
        self.input_chunk_length = input_chunk_length

    def fit(self, train_dataset, epochs=10):
        opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        loader = DataLoader(train_dataset, batch_size=self.batch_size, shuffle=True, drop_last=True)
        for _ in range(epochs):
            self.model.train()
            for data, target in loader:
                data, target = data.to(self.device), target.to(self.device)
                loss = nn.functional.mse_loss(self.model(data), target)
                opt.zero_grad()
                loss.backward()
                opt.step()

    def predict_from_dataset(self, n, dataset):
        self.model.eval()
        loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=False)
        predictions = []
        with torch.no_grad():
            for batch_tuple in loader:
                input_series = batch_tuple[0]  # bug: eval_batch_not_moved
                out = self.model(input_series)
                chunks = [out]
                while sum(c.shape[1] for c in chunks) < n:
                    input_series = torch.cat([input_series, out], dim=1)[:, -self.input_chunk_length:]
                    out = self.model(input_series)
                    chunks.append(out)
                predictions.append(torch.cat(chunks, dim=1)[:, :n].cpu().numpy())
        return predictions
