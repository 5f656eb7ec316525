# Code that runs with the module but is not its forward(): a sample() method (under
# @torch.no_grad()) that runs the module itself, and a plain helper two calls away from forward(),
# whose results are used as made. Also a sequence made a tensor in forward().
import torch
from torch import nn


def gather_window(x, start, size):
    idx = torch.tensor(range(start, start + size))  # expect: code.tensor_created_without_device=warning
    return torch.index_select(x, 1, idx)


def windowed_mean(x, size):
    parts = [gather_window(x, s, size) for s in range(0, x.size(1) - size + 1, size)]
    return torch.stack(parts).mean(0)


class Decoder(nn.Module):
    def __init__(self, vocab=64, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        picks = torch.tensor([0, 2, 4])  # expect: code.tensor_created_without_device=warning
        h = windowed_mean(self.embed(tokens), 2)
        return self.head(h)[:, picks]

    @torch.no_grad()
    def sample(self, prompt, steps=8):
        tokens = prompt.to(self.head.weight.device)
        seen = torch.zeros(tokens.size(0))  # expect: code.tensor_created_without_device=warning
        for _ in range(steps):
            logits = self.forward(tokens)
            nxt = logits.argmax(-1, keepdim=True)
            seen = seen + (nxt.squeeze(1) == 0).float()
            tokens = torch.cat([tokens, nxt], dim=1)
        return tokens, seen


model = Decoder().cuda()
