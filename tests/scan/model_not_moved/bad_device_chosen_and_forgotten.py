# A wrapper that chooses the GPU when there is one and then never uses that choice: the model it loads
# and the token tensors it builds stay on the CPU.
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
        self.lm = TinyLM.from_pretrained(self.name)  # expect: code.model_not_moved
        self.lm.eval()

    def complete(self, ids):
        if self.lm is None:
            self._load()
        with torch.no_grad():
            return self.lm(torch.tensor([ids])).argmax(-1)
