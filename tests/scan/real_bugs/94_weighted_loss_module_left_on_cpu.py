# source: https://github.com/sacdallago/biotrainer/pull/62
# also: https://github.com/sacdallago/biotrainer/commit/6669bd82137fd386f658d8fb47d8ecfd822f64c5
# kind: model_not_moved
# bug: the training routine built a class-weighted CrossEntropyLoss from CPU class weights and never moved the loss module, while the solver put the network and the batches on CUDA, so training on the GPU failed; the fix passes the device to the loss factory, which returns loss(...).to(device).
# split: test2
import torch
from torch import nn
from torch.utils.data import DataLoader

from protkit.models import get_model
from protkit.targets import class_weights_of


def get_device(name=None):
    if name:
        return torch.device(name)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Solver:
    def __init__(self, network, loss_fn, device, lr=1e-3):
        self.device = device
        self.network = network.to(device)
        self.loss_fn = loss_fn
        self.opt = torch.optim.Adam(self.network.parameters(), lr=lr)

    def train_epoch(self, loader):
        self.network.train()
        for emb, y in loader:
            emb, y = emb.to(self.device), y.to(self.device)
            loss = self.loss_fn(self.network(emb), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


def run(train_set, n_classes, n_features, use_weights=True, device=None, epochs=20):
    device = get_device(device)
    weights = class_weights_of(train_set) if use_weights else None
    model = get_model("CNN", n_classes=n_classes, n_features=n_features)
    loss_fn = nn.CrossEntropyLoss(weight=weights)  # bug: model_not_moved
    solver = Solver(model, loss_fn, device)
    loader = DataLoader(train_set, batch_size=128, shuffle=True)
    for _ in range(epochs):
        solver.train_epoch(loader)
