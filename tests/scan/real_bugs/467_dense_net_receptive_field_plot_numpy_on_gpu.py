# source: https://github.com/Aifred-Health/VulcanAI/issues/112
# kind: numpy_of_device_tensor
# bug: the receptive-field plotting helper read each dense unit's kernel weight with .detach().numpy(), which raises as soon as the network has been trained on CUDA; the fix inserts .cpu() before .numpy().
# split: test22
from math import ceil, floor, sqrt

import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn


class DenseUnit(nn.Module):
    def __init__(self, in_features, out_features, dropout=0.1):
        super().__init__()
        self._kernel = nn.Linear(in_features, out_features)
        self._activation = nn.ReLU()
        self._dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self._dropout(self._activation(self._kernel(x)))


class DenseNetwork(nn.Module):
    def __init__(self, in_dim, hidden=(64, 32), num_classes=10):
        super().__init__()
        dims = [in_dim, *hidden]
        self.network = nn.Sequential(*[DenseUnit(a, b) for a, b in zip(dims[:-1], dims[1:])])
        self.head = nn.Linear(dims[-1], num_classes)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.to(self.device)

    def forward(self, x):
        return self.head(self.network(x))

    def fit(self, x, y, epochs=5, lr=1e-3):
        opt = torch.optim.Adam(self.parameters(), lr=lr)
        x, y = x.to(self.device), y.to(self.device)
        for _ in range(epochs):
            loss = nn.functional.cross_entropy(self(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


def get_notable_indices(values, top_k=5):
    order = np.argsort(values)
    return {"top": order[-top_k:][::-1].tolist(), "bottom": order[:top_k].tolist()}


def display_receptive_fields(network, top_k=5, save_path=None):
    importance = {}
    fig = plt.figure()
    fig.suptitle("Feature importance")
    num_layers = len(network._modules["network"])
    for i, layer in enumerate(network._modules["network"]):
        raw_field = layer._kernel._parameters["weight"].detach().numpy()  # bug: numpy_of_device_tensor
        field = np.abs(np.average(raw_field, axis=0))
        shape = [floor(sqrt(field.shape[0])), ceil(sqrt(field.shape[0]))]
        fig.add_subplot(floor(sqrt(num_layers)), ceil(sqrt(num_layers)), i + 1)
        name = "{}_{}".format(type(layer).__name__, i)
        importance[name] = get_notable_indices(field, top_k)
        plt.title(name)
        plt.imshow(np.resize(field, shape), cmap="Blues")
        plt.colorbar()
    if save_path:
        plt.savefig(save_path)
    return importance


if __name__ == "__main__":
    net = DenseNetwork(784)
    xs = torch.rand(256, 784)
    ys = torch.randint(0, 10, (256,))
    net.fit(xs, ys)
    print(display_receptive_fields(net, save_path="fields.png"))
