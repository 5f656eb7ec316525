# PyTorch before 0.4 wrapped tensors in Variable; the host allocation is the same.
import torch
from torch import nn
from torch.autograd import Variable


class Decoder(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.cell = nn.LSTMCell(n, n)

    def forward(self, x):
        h = Variable(torch.zeros(x.size(0), self.n)).cuda()  # expect: code.tensor_created_then_moved
        c = Variable(torch.zeros(x.size(0), self.n)).cuda()  # expect: code.tensor_created_then_moved
        return self.cell(x, (h, c))
