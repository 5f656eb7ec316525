# source: https://github.com/freud14/poutyne/pull/25
# kind: model_not_moved
# bug: the Keras-like training wrapper's `to(device)` / `cuda()` moved only the wrapped network, and the loss function it was given was stored as is, so a loss that is an `nn.Module` holding tensors (class weights, a learned margin) stayed on the CPU while the network and the batches were on CUDA; the fix also moves the loss function when it is an `nn.Module`.
# split: test9
import torch
import torch.nn as nn


def torch_to(obj, device):
    if torch.is_tensor(obj):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(torch_to(o, device) for o in obj)
    return obj


class Model:
    def __init__(self, network, optimizer, loss_function, metrics=()):
        self.network = network
        self.optimizer = optimizer
        self.loss_function = loss_function  # bug: model_not_moved
        self.metrics = list(metrics)
        self.device = None

    def to(self, device):
        self.device = device
        self.network.to(self.device)
        return self

    def cuda(self, *args, **kwargs):
        return self.to(torch.device("cuda", *args, **kwargs) if args or kwargs else torch.device("cuda"))

    def _fit_batch(self, x, y):
        x, y = torch_to(x, self.device), torch_to(y, self.device)
        self.optimizer.zero_grad()
        pred = self.network(x)
        loss = self.loss_function(pred, y)
        loss.backward()
        self.optimizer.step()
        return float(loss)

    def fit_generator(self, train_loader, epochs=10):
        self.network.train()
        for _ in range(epochs):
            for x, y in train_loader:
                self._fit_batch(x, y)


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    weighted = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 5.0]))
    model = Model(net, opt, weighted).cuda()
    data = [(torch.randn(32, 20), torch.randint(0, 3, (32,))) for _ in range(10)]
    model.fit_generator(data, epochs=2)
