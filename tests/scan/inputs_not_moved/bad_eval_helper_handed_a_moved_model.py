# An evaluation helper takes the model as a parameter and builds its own loader; the only caller
# moves the model to the GPU first, but the helper never moves its batches.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def predict_all(net, dataset):
    loader = DataLoader(dataset, batch_size=64)
    outputs = []
    with torch.no_grad():
        for features, _ in loader:
            outputs.append(net(features).cpu())  # expect: code.inputs_not_moved
    return torch.cat(outputs)


if __name__ == "__main__":
    device = torch.device("cuda")
    data = TensorDataset(torch.randn(256, 8), torch.zeros(256))
    model = nn.Linear(8, 2)
    model.to(device)
    print(predict_all(model, data).shape)
