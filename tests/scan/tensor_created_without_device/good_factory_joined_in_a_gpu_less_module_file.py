# The same decoder making its start state and tokens where the input is.
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
        context = torch.zeros(hidden.shape[0], self.dim, device=hidden.device)
        token = torch.ones(hidden.shape[0], dtype=torch.long, device=hidden.device)
        outs = []
        for _ in range(self.steps):
            hidden = self.cell(torch.cat([self.emb(token), context], -1), hidden)
            outs.append(hidden)
        return torch.stack(outs, 1)
