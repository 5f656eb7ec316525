# Special token ids read from a config dict become a CPU tensor in a module's method and meet the
# input tokens in torch.isin: with the module on the GPU the call fails.
import torch
from torch import nn


class SpecialTokenMask(nn.Module):
    def __init__(self, special_ids):
        super().__init__()
        self.special_ids = special_ids
        self.embed = nn.Embedding(1000, 32)

    def text_positions(self, tokens):
        ids = torch.tensor(sorted(self.special_ids.values()))  # expect: code.tensor_created_without_device
        return ~torch.isin(tokens, ids)

    def forward(self, tokens):
        keep = self.text_positions(tokens)
        return self.embed(tokens) * keep.unsqueeze(-1)


model = SpecialTokenMask({"image": 999}).to("cuda")
