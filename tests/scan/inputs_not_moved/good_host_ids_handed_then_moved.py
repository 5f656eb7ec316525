# The same helpers, used right: the ids are moved before they are handed over, or the helper moves
# them itself; and a model that stays on the CPU may take host ids.
import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.embed(ids))


def encode(text, vocab=100):
    return torch.tensor([hash(w) % vocab for w in text.split()]).unsqueeze(0)


def generate(model, ids, steps):
    for _ in range(steps):
        logits = model(ids[:, -8:])[:, -1]
        ids = torch.cat([ids, logits.argmax(-1, keepdim=True)], dim=1)
    return ids


def main():
    device = torch.device("cuda")
    model = TinyLM().to(device)
    cpu_model = TinyLM()
    first = generate(model, encode("a b c").to(device), steps=4)
    second = generate(cpu_model, encode("a b c"), steps=4)
    return first, second


main()
