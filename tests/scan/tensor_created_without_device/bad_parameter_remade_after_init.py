# An embedding that grows its vocabulary after construction (after the model may have been moved):
# the replacement weight is made without a device.
import torch
from torch import nn
from torch.nn.parameter import UninitializedParameter


class GrowableEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.weight = UninitializedParameter()
        self.vocab = {}

    def extend_vocab(self, words):
        for w in words:
            self.vocab.setdefault(w, len(self.vocab))
        old = self.weight.detach().clone()
        self.weight = UninitializedParameter()  # expect: code.tensor_created_without_device
        self.weight.materialize((len(self.vocab), self.dim))
        self.weight.data[: len(old)] = old

    def resize(self, n):
        self.weight = nn.Parameter(torch.zeros(n, self.dim))  # expect: code.tensor_created_without_device

    def forward(self, ids):
        return self.weight[ids]
