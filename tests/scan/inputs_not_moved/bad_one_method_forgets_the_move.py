# The class moves its inputs to the model's device in one method and forgets it in another.
import torch
from torch.utils.data import DataLoader


class Attribution:
    def __init__(self, model):
        self.model = model

    @property
    def device(self):
        return next(self.model.parameters()).device

    def fit(self, data: DataLoader):
        total = 0.0
        for x, _ in data:
            out = self.model(x)  # expect: code.inputs_not_moved
            out.norm().backward()
            total += out.norm().item()
        return total

    def score(self, x):
        return self.model(x.to(self.device)).softmax(-1)
