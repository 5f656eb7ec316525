# The same growth making the new weight on the old one's device; set-up methods called from __init__.
import torch
from torch import nn
from torch.nn.parameter import UninitializedParameter


class GrowableEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.vocab = {}
        self.reset_parameters(1)

    def reset_parameters(self, n):
        self.weight = nn.Parameter(torch.zeros(n, self.dim))

    def extend_vocab(self, words):
        for w in words:
            self.vocab.setdefault(w, len(self.vocab))
        old = self.weight.detach().clone()
        self.weight = UninitializedParameter(device=old.device)
        self.weight.materialize((len(self.vocab), self.dim))
        self.weight.data[: len(old)] = old

    def resize(self, n):
        self.weight = nn.Parameter(torch.zeros(n, self.dim, device=self.weight.device))

    def forward(self, ids):
        return self.weight[ids]
