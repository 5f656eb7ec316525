import torch
from torch import nn
from torch.utils.data import DataLoader

device = "cuda:0"


def evaluate(model: nn.Module, dataset):
    model.to(device)
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in DataLoader(dataset, batch_size=256, num_workers=4):
            x.to(device)  # expect: code.to_result_discarded
            y.cuda()  # expect: code.to_result_discarded
            correct += (model(x).argmax(1) == y).sum()  # expect: code.inputs_not_moved
    return correct


def make_noise(batch_size):
    noise = torch.randn(batch_size, 128)
    noise.to(device)  # expect: code.to_result_discarded
    return noise
