# The same module building its query on its own device.
import torch
from torch import nn


class PairScorer(nn.Module):
    def __init__(self, vocab, dim=32, device="cuda"):
        super().__init__()
        self.vocab = vocab
        self.emb = nn.Embedding(len(vocab), dim)
        self.device = torch.device(device)
        self.to(self.device)

    def score(self, pairs):
        e = self.emb(pairs)
        return (e[:, 0] * e[:, 1]).sum(-1)

    def predict(self, a, b):
        pair = torch.tensor([[self.vocab[a], self.vocab[b]]], device=self.device)
        with torch.no_grad():
            return self.score(pair).item()
