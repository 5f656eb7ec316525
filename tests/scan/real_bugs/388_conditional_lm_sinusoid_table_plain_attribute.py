# source: https://github.com/huggingface/transformers/pull/19681
# kind: attribute_not_buffer
# bug: the conditional language model kept its precomputed sinusoidal position table as a plain tensor attribute built in __init__, so `model.to("cuda")` left it on the CPU and the forward indexed it with CUDA position ids (an error from PyTorch 1.13 on); the fix moves the table to the input device inside forward.
# split: test18
import math

import torch
import torch.nn as nn


def sinusoid_table(n_pos, dim, dtype=torch.float):
    pos = torch.arange(n_pos, dtype=dtype).unsqueeze(1)
    i = torch.arange(dim, dtype=dtype).unsqueeze(0)
    angle = pos / torch.pow(10000, (2 * (i // 2)) / dim)
    table = torch.zeros(n_pos, dim, dtype=dtype)
    table[:, 0::2] = torch.sin(angle[:, 0::2])
    table[:, 1::2] = torch.cos(angle[:, 1::2])
    return table


class ControlCodeLM(nn.Module):
    def __init__(self, vocab=5000, n_positions=256, dim=128, layers=2, heads=4):
        super().__init__()
        self.dim = dim
        self.pos_encoding = sinusoid_table(n_positions, dim)  # bug: attribute_not_buffer
        self.tok = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, position_ids=None):
        b, t = input_ids.shape
        if position_ids is None:
            position_ids = torch.arange(t, device=input_ids.device).unsqueeze(0).expand(b, t)
        x = self.tok(input_ids) * math.sqrt(self.dim)
        pos = self.pos_encoding[position_ids, :].to(x.device)
        mask = torch.triu(torch.full((t, t), float("-inf"), device=x.device), diagonal=1)
        h = self.blocks(x + pos, mask=mask)
        return self.lm_head(h)


if __name__ == "__main__":
    model = ControlCodeLM().to("cuda")
    ids = torch.randint(0, 5000, (2, 32), device="cuda")
    print(model(ids).shape)
