# source: https://github.com/sql-machine-learning/elasticdl/pull/2484
# also: https://github.com/sql-machine-learning/elasticdl/commit/4c5e7d8a464cf885f0f3084ce7bb6449004c24cb
# kind: model_not_moved
# bug: the elastic PyTorch MNIST example moved every training and test batch to the CUDA device but never moved the network; the fix calls model.cuda() when CUDA is available.
# split: test4
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3)
        self.conv2 = nn.Conv2d(32, 64, 3)
        self.fc = nn.Linear(9216, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv2(F.relu(self.conv1(x)))), 2)
        return F.log_softmax(self.fc(torch.flatten(x, 1)), dim=1)


def one_batch(model, optimizer, data, target):
    optimizer.zero_grad()
    loss = F.nll_loss(model(data), target)
    loss.backward()
    optimizer.step()
    return loss


def train(train_loader, use_cuda=True, lr=0.1):
    device = torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")
    model = SmallCNN()  # bug: model_not_moved
    optimizer = optim.SGD(model.parameters(), lr=lr)
    for step, (data, target) in enumerate(train_loader):
        model.train()
        data, target = data.to(device), target.long().to(device)
        loss = one_batch(model, optimizer, data, target)
        print(f"step {step} loss {loss.item():.4f}")
    return model
