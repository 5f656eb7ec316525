# The same lookup done right: the ids are made on the tokens' device, or kept as a buffer.
import torch
from torch import nn


class SpecialTokenMask(nn.Module):
    def __init__(self, special_ids):
        super().__init__()
        self.special_ids = special_ids
        self.register_buffer("ids", torch.tensor(sorted(special_ids.values())), persistent=False)
        self.embed = nn.Embedding(1000, 32)

    def text_positions(self, tokens):
        ids = torch.tensor(sorted(self.special_ids.values()), device=tokens.device)
        return ~torch.isin(tokens, ids) & ~torch.isin(tokens, self.ids)

    def forward(self, tokens):
        keep = self.text_positions(tokens)
        return self.embed(tokens) * keep.unsqueeze(-1)


model = SpecialTokenMask({"image": 999}).to("cuda")
