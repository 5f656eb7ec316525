# The same helper moving each batch to where the model is; and one whose callers keep the model on
# the CPU.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def predict_all(net, dataset):
    loader = DataLoader(dataset, batch_size=64)
    device = next(net.parameters()).device
    outputs = []
    with torch.no_grad():
        for features, _ in loader:
            outputs.append(net(features.to(device)).cpu())
    return torch.cat(outputs)


def predict_on_host(net, dataset):
    loader = DataLoader(dataset, batch_size=64)
    with torch.no_grad():
        return torch.cat([net(features) for features, _ in loader])


if __name__ == "__main__":
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(256, 8), torch.zeros(256))
    model = nn.Linear(8, 2)
    print(predict_on_host(model, data).shape)
    model.to(device)
    print(predict_all(model, data).shape)
