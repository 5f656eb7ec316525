# A generation helper runs the model it is given on the ids it is given; the caller hands it the
# model it moved to the GPU and ids a helper made on the host.
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
    out = generate(model, encode("a b c"), steps=4)  # expect: code.inputs_not_moved
    print(generate(model=model, ids=encode("d e"), steps=2))  # expect: code.inputs_not_moved
    return out


main()
