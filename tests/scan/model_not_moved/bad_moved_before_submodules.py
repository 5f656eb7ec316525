import torch
from torch import nn


class Autoencoder(nn.Module):
    def __init__(self, use_gpu):
        super().__init__()
        if use_gpu:
            self.cuda()  # expect: code.model_not_moved
        self.encoder = nn.Linear(784, 32)
        self.decoder = nn.Linear(32, 784)

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))
