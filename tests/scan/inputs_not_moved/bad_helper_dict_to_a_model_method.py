# A module-level helper packs token ids into a dict of CPU tensors; the service moved its model to
# the device in __init__ and hands the dict's tensor to one of the model's own methods.
import torch
from torch import nn


class TwoTower(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.out = nn.Linear(dim, dim)

    def encode_text(self, ids):
        return self.out(self.emb(ids))


def pack(sentences):
    batch = {}
    ids = [[len(w) % 500 for w in s.split()] for s in sentences]
    batch["ids"] = torch.tensor(ids)
    return batch


class Service:
    def __init__(self, device):
        self.model = TwoTower().to(device)

    def embed(self, sentences):
        packed = pack(sentences)  # expect: code.inputs_not_moved
        return self.model.encode_text(packed["ids"])

    def embed_rows(self, rows):
        ids = [[t % 500 for t in r] for r in rows]
        tokens = torch.tensor(ids)  # expect: code.inputs_not_moved
        return self.model.encode_text(tokens)
