# source: https://github.com/baal-org/baal/pull/80
# also: https://github.com/baal-org/baal/commit/8c1b1e2a47e5dd6c6b75d57b8c2152a00ba6b323
# kind: model_not_moved
# bug: the active-learning trainer's pool-prediction generator moved each pool batch to CUDA when training on the GPU, but the model had been moved back to the CPU by the training framework's teardown after `fit`, so MC-dropout predictions mixed CUDA inputs with CPU weights (#79); the fix moves the model to the root GPU before predicting and back to the CPU afterwards.
# split: test13
import sys

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


def to_cuda(data):
    if isinstance(data, (list, tuple)):
        return type(data)(to_cuda(d) for d in data)
    return data.cuda()


def mc_inference(model, data, iterations):
    return torch.stack([model(data) for _ in range(iterations)], dim=-1)


class PoolClassifier(nn.Module):
    def __init__(self, pool_set, iterations=20):
        super().__init__()
        self.pool_set = pool_set
        self.iterations = iterations
        self.net = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 10))

    def forward(self, x):
        return self.net(x)

    def pool_loader(self):
        return DataLoader(self.pool_set, batch_size=64, shuffle=False)

    def predict_step(self, data, batch_idx):
        return mc_inference(self, data, self.iterations)


class ActiveTrainer:
    def __init__(self, model, gpus=1):
        self.model = model
        self.on_gpu = gpus > 0 and torch.cuda.is_available()

    def fit(self, loader, epochs=1):
        if self.on_gpu:
            self.model.cuda()
        opt = torch.optim.SGD(self.model.parameters(), lr=0.01)
        for _ in range(epochs):
            for x, y in loader:
                if self.on_gpu:
                    x, y = to_cuda((x, y))
                loss = nn.functional.cross_entropy(self.model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
        self.model.cpu()  # framework teardown puts the weights back on the host

    def iter_pool_predictions(self):
        model = self.model
        model.eval()  # bug: model_not_moved
        for m in model.modules():
            if isinstance(m, nn.Dropout):
                m.train()
        dataloader = model.pool_loader()
        for idx, (data, _) in enumerate(tqdm(dataloader, file=sys.stdout)):
            if self.on_gpu:
                data = to_cuda(data)
            with torch.no_grad():
                pred = model.predict_step(data, idx)
            yield pred.detach().cpu().numpy()

    def predict_on_dataset(self):
        return np.vstack(list(self.iter_pool_predictions()))


if __name__ == "__main__":
    labelled = TensorDataset(torch.randn(256, 32), torch.randint(0, 10, (256,)))
    pool = TensorDataset(torch.randn(1024, 32), torch.zeros(1024, dtype=torch.long))
    model = PoolClassifier(pool)
    trainer = ActiveTrainer(model, gpus=1)
    trainer.fit(DataLoader(labelled, batch_size=32, shuffle=True))
    print(trainer.predict_on_dataset().shape)
