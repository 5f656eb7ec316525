# source: https://github.com/HiroIshida/mohou/pull/232
# also: https://github.com/HiroIshida/mohou/commit/8364c966333704bfa9229d4aaff50985277a9ea2
# kind: loaded_weights_not_moved
# bug: for warm-start training the trainer took the best model from the training cache, which had been torch.load-ed with map_location="cpu" and pinned to the CPU, and then only called model.put_on_device() with no argument (re-applying the model's stored CPU device), so batches followed the model and the whole warm run silently trained on the CPU; the fix detects the device and puts the cached model on it before training.
# split: test8
import torch
from torch.optim import Adam
from torch.utils.data import DataLoader


def detect_device():
    return torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")


class DeviceAwareModel(torch.nn.Module):
    def __init__(self, device=None):
        super().__init__()
        self.device = detect_device() if device is None else device

    def put_on_device(self, device=None):
        if device is not None:
            self.device = device
        self.to(self.device)


class TrainCache:
    def __init__(self, path):
        self.path = path
        self.best_model = torch.load(path, map_location=torch.device("cpu"))
        self.best_model.put_on_device(torch.device("cpu"))


def train(cache, dataset, n_epoch=100, lr=1e-3, batch_size=200):
    model = cache.best_model

    def to_model_device(sample):
        return tuple(s.to(model.device) for s in sample)

    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
    optimizer = Adam(model.parameters(), lr=lr)
    model.put_on_device()  # bug: loaded_weights_not_moved
    for epoch in range(n_epoch):
        model.train()
        for sample in loader:
            optimizer.zero_grad()
            loss = model.loss(to_model_device(sample))
            loss.backward()
            optimizer.step()
    torch.save(model, cache.path)
