# A decoder module in a file that never names a GPU: the start state and start tokens are made
# without a device and then joined with what the module's own layers compute from the input. On a
# GPU that torch.cat fails, whoever moves the module; so the finding is a warning here, not advice.
import torch
from torch import nn


class StepDecoder(nn.Module):
    def __init__(self, vocab=100, dim=16, steps=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(2 * dim, dim)
        self.dim = dim
        self.steps = steps

    def forward(self, enc_final):
        hidden = enc_final
        context = torch.zeros(hidden.shape[0], self.dim)  # expect: code.tensor_created_without_device=warning
        token = torch.ones(hidden.shape[0], dtype=torch.long)  # expect: code.tensor_created_without_device=warning
        outs = []
        for _ in range(self.steps):
            hidden = self.cell(torch.cat([self.emb(token), context], -1), hidden)
            outs.append(hidden)
        return torch.stack(outs, 1)


# Filled from the layers' outputs and returned: stores copy across devices, so this stays advice.
class Scorer(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj = nn.Linear(dim, 1)

    def forward(self, items):
        n = len(items)
        scores = torch.zeros(n)  # expect: code.tensor_created_without_device=info
        for i in range(n):
            scores[i] = self.proj(items[i]).squeeze()
        return scores.softmax(0)


# A helper of the module makes the first state; forward() joins it with the input.
class NodeCell(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.dim = dim
        self.update = nn.Linear(2 * dim, dim)

    def _first_state(self, feats, state):
        if state is None:
            state = torch.zeros(feats.shape[0], self.dim)  # expect: code.tensor_created_without_device=warning
        return state

    def forward(self, feats, state=None):
        state = self._first_state(feats, state)
        return torch.tanh(self.update(torch.cat([feats, state], dim=1)))  # expect: code.tensor_created_without_device
