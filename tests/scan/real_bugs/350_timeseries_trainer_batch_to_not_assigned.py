# source: https://github.com/freqtrade/freqtrade/pull/8903
# also: https://github.com/freqtrade/freqtrade/commit/9cb45a38108fcd33352bf8c645adc2a46c4b2218
# kind: to_result_discarded
# bug: the PyTorch model trainer's fit loop called `xb.to(self.device)` and `yb.to(self.device)` without keeping the results, so the batches stayed on the CPU while the model was on the GPU; the merged fix assigns `xb = xb.to(self.device)` and `yb = yb.to(self.device)`.
# split: test16
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class MLPRegressor(nn.Module):
    def __init__(self, input_dim, hidden_dim=256, dropout=0.2):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(input_dim, hidden_dim), nn.ReLU(), nn.Dropout(dropout),
            nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, 1),
        )

    def forward(self, x):
        return self.net(x)


class ModelTrainer:
    def __init__(self, model, optimizer, criterion, device, n_epochs=10):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device
        self.n_epochs = n_epochs

    def fit(self, loaders):
        self.model.train()
        for epoch in range(self.n_epochs):
            for i, batch_data in enumerate(loaders["train"]):
                xb, yb = batch_data
                xb.to(self.device)  # bug: to_result_discarded
                yb.to(self.device)
                yb_pred = self.model(xb)
                loss = self.criterion(yb_pred, yb)
                self.optimizer.zero_grad(set_to_none=True)
                loss.backward()
                self.optimizer.step()


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x, y = torch.randn(1024, 40), torch.randn(1024, 1)
    loaders = {"train": DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)}
    model = MLPRegressor(40)
    trainer = ModelTrainer(model, torch.optim.AdamW(model.parameters(), lr=3e-4), nn.MSELoss(), device)
    trainer.fit(loaders)
