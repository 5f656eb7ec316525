# The same kind of helper, tried on host tensors and then used in training on GPU batches: one call
# with device values keeps the finding.
import torch
from torch import nn

model = nn.Linear(3, 3).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def ordinal_loss(probas, targets, power=5):
    labels = torch.arange(probas.shape[1]).repeat(probas.shape[0], 1)  # expect: code.tensor_created_without_device
    return (torch.abs(labels - targets.reshape(-1, 1)) ** power * probas).sum()


ordinal_loss(torch.rand(4, 3), torch.tensor([0, 2, 1, 2]))


def train(loader):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = ordinal_loss(model(x).softmax(1), y)
        loss.backward()
        opt.step()
