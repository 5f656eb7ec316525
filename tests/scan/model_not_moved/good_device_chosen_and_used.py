# The same wrapper using the device it chose, and a script that chooses one and hands it on.
import torch
from torch import nn


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 16)
        self.head = nn.Linear(16, 100)

    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def forward(self, ids):
        return self.head(self.embed(ids))


class Completer:
    def __init__(self, name="tiny"):
        self.name = name
        self.lm = None
        self.use_device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def _load(self):
        self.lm = TinyLM.from_pretrained(self.name).to(self.use_device)
        self.lm.eval()

    def complete(self, ids):
        if self.lm is None:
            self._load()
        with torch.no_grad():
            return self.lm(torch.tensor([ids], device=self.use_device)).argmax(-1)


def run(ids):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = TinyLM()
    return evaluate(model, ids, device)


def evaluate(model, ids, device):
    model.to(device)
    return model(torch.tensor([ids], device=device))
