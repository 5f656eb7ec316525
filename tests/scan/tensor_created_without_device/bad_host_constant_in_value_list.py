# A helper that forward() calls keeps constants made on the host in the same list as values from
# its input, and multiplies them together.
import torch
from torch import nn


def product_of(terms, probs):
    one = torch.ones(1)  # expect: code.tensor_created_without_device
    values = []
    for t in terms:
        if t is None:
            values.append(one)
        else:
            values.append(probs[t])
    out = values[0]
    for i in range(1, len(values)):
        out = out * values[i]
    return out


class Circuit(nn.Module):
    def __init__(self, terms):
        super().__init__()
        self.terms = terms

    def forward(self, logits):
        return product_of(self.terms, torch.sigmoid(logits).unbind(1))
