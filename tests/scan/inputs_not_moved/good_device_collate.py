# Near miss: the collate function puts every batch on the GPU already.
import torch
from torch import nn
from torch.utils.data import DataLoader, default_collate


def to_gpu(samples):
    return [t.to("cuda") for t in default_collate(samples)]


def train(dataset):
    model = nn.Linear(8, 1).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(dataset, batch_size=4, collate_fn=to_gpu)
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
