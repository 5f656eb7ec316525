import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self, n_in, n_hidden):
        super().__init__()
        self.n_hidden = n_hidden
        self.rnn = nn.GRU(n_in, n_hidden, batch_first=True)

    def init_hidden(self, batch):
        self.hidden = torch.zeros(1, batch, self.n_hidden)  # expect: code.tensor_attribute_not_buffer

    def forward(self, x):
        out, self.hidden = self.rnn(x, self.hidden)
        return out
