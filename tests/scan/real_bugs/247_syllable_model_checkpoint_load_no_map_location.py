# source: https://github.com/vocalpy/vak/pull/324
# also: https://github.com/vocalpy/vak/commit/c965c85c60836e39b4d270340495ba3762aad3b7
# kind: loaded_weights_not_moved
# bug: the model wrapper's `load()` restored network and optimizer state with a bare `torch.load(ckpt_path)`, so a checkpoint trained on a GPU was deserialised onto the device it was saved from regardless of the `device` that `eval`/`predict` had been asked to use, and evaluation on another device (a CPU-only machine) failed with a RuntimeError (issue #323); the fix adds a `device` parameter, passes it as `map_location`, and has `core.eval`/`core.predict` forward their device.
# split: test11
import torch
from torch import nn


def default_device():
    return "cuda" if torch.cuda.is_available() else "cpu"


class TweetyLikeNet(nn.Module):
    def __init__(self, n_freq=257, n_classes=20, hidden=128):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 32, 5, padding=2), nn.ReLU(), nn.MaxPool2d((8, 1)))
        self.rnn = nn.LSTM(32 * (n_freq // 8), hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, spect):
        h = self.conv(spect.unsqueeze(1))
        b, c, f, t = h.shape
        h, _ = self.rnn(h.permute(0, 3, 1, 2).reshape(b, t, c * f))
        return self.fc(h).permute(0, 2, 1)


class Model:
    def __init__(self, network, optimizer, loss):
        self.network = network
        self.optimizer = optimizer
        self.loss = loss
        self.device = None

    def save(self, path):
        torch.save({"network_state_dict": self.network.state_dict(),
                    "optimizer_state_dict": self.optimizer.state_dict()}, path)

    def load(self, ckpt_path):
        ckpt = torch.load(ckpt_path)  # bug: loaded_weights_not_moved
        self.network.load_state_dict(ckpt["network_state_dict"])
        self.optimizer.load_state_dict(ckpt["optimizer_state_dict"])

    def evaluate(self, loader, device=None):
        self.device = device or default_device()
        self.network.to(self.device)
        self.network.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for spect, annot in loader:
                spect, annot = spect.to(self.device), annot.to(self.device)
                total += self.loss(self.network(spect), annot).item()
                n += 1
        return total / max(n, 1)


def core_eval(checkpoint_path, loader, device):
    net = TweetyLikeNet()
    model = Model(net, torch.optim.Adam(net.parameters()), nn.CrossEntropyLoss())
    model.load(checkpoint_path)
    return model.evaluate(loader, device=device)
