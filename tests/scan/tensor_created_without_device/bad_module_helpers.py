# Tensors a module makes at run time, outside forward() itself: in a helper forward() calls, in a
# state initialiser, or inline in an expression with the inputs. Each is on the CPU while the module
# and its inputs are on the GPU.
import torch
import torch.nn.functional as F
from torch import nn


class Tagger(nn.Module):
    def __init__(self, vocab, hidden, layers=2):
        super().__init__()
        self.hidden = hidden
        self.layers = layers
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, layers, batch_first=True)

    def init_hidden(self, batch):
        return torch.zeros(self.layers, batch, self.hidden)  # expect: code.tensor_created_without_device

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens), self.init_hidden(tokens.size(0)))
        return out


class CausalScores(nn.Module):
    def _future(self, n):
        return torch.triu(torch.ones(n, n), diagonal=1).bool()  # expect: code.tensor_created_without_device

    def forward(self, scores):
        return scores.masked_fill(self._future(scores.size(-1)), float("-inf"))


def length_mask(lengths):
    return torch.arange(int(lengths.max()))[None, :] < lengths[:, None]  # expect: code.tensor_created_without_device


def smooth_targets(logits, labels, eps=0.1):
    uniform = torch.full((logits.size(-1),), 1.0 / logits.size(-1))  # expect: code.tensor_created_without_device
    return F.kl_div(logits.log_softmax(-1), (1 - eps) * F.one_hot(labels, logits.size(-1)) + eps * uniform)


model = Tagger(100, 32).cuda()
