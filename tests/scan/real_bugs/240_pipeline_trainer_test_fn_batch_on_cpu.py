# source: https://github.com/zenml-io/zenml/issues/90
# also: https://github.com/zenml-io/zenml/pull/91
# kind: eval_batch_not_moved
# bug: the PyTorch feed-forward trainer step moved the model to the GPU (when one was present) and moved every training batch, but its test_fn, run on each test split after training, concatenated the feature tensors straight from the loader and fed that CPU batch to the CUDA model, so the pipeline failed after training with "Tensor for argument #2 'mat1' is on CPU, but expected it to be on GPU"; the fix (PR #91) moves the test features to the trainer's device (and brings the outputs back with .cpu() before converting them to numpy).
# split: test10
import torch
import torch.nn as nn
import torch.optim as optim


class BinaryClassifier(nn.Module):
    def __init__(self, n_in=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.BatchNorm1d(64),
                                 nn.Linear(64, 64), nn.ReLU(), nn.BatchNorm1d(64),
                                 nn.Dropout(0.1), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def combine_batch_results(batches):
    out = {}
    for batch in batches:
        for key, value in batch.items():
            if isinstance(value, torch.Tensor):
                value = torch.squeeze(value).detach().numpy()
            out.setdefault(key, []).append(value)
    return out


class FeedForwardTrainer:
    def __init__(self, epochs=10, lr=1e-3):
        self.epochs = epochs
        self.lr = lr
        self.device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    def test_fn(self, model, dataset):
        model.eval()
        batches = []
        for x, y, raw in dataset:
            batch = {}
            batch.update(x)
            batch.update(y)
            batch.update(raw)
            x_batch = torch.cat([v for v in x.values()], dim=-1)
            batch["output"] = model(x_batch)  # bug: eval_batch_not_moved
            batches.append(batch)
        return combine_batch_results(batches)

    def run_fn(self, train_loader, test_loaders):
        model = BinaryClassifier().to(self.device)
        criterion = nn.BCEWithLogitsLoss()
        optimizer = optim.Adam(model.parameters(), lr=self.lr)
        model.train()
        for _ in range(self.epochs):
            for x, y, _ in train_loader:
                x_batch = torch.cat([v.to(self.device) for v in x.values()], dim=-1)
                y_batch = torch.cat([v.to(self.device) for v in y.values()], dim=-1)
                optimizer.zero_grad()
                loss = criterion(model(x_batch), y_batch)
                loss.backward()
                optimizer.step()
        return {split: self.test_fn(model, loader) for split, loader in test_loaders.items()}
