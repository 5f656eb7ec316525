# source: https://github.com/antoniorv6/SMT/pull/6
# also: https://github.com/antoniorv6/SMT/commit/8121aa16928051ae2142650ea7406ed7908018d3
# kind: attribute_not_buffer
# bug: the 1D/2D positional encodings stored their precomputed tables as plain tensor attributes (created once on "cuda if available"), so `model.to(...)` never moved them and forward had to copy them with `.to(x.device)`; the merged PR registers them as non-persistent buffers.
# split: test3
import torch
import torch.nn as nn


class PositionalEncoding1D(nn.Module):
    def __init__(self, dim, max_len):
        super().__init__()
        self.dim = dim
        self.table = torch.zeros(max_len, dim)  # bug: attribute_not_buffer
        div = torch.exp(-torch.arange(0.0, dim, 2) / dim * torch.log(torch.tensor(1e4)))
        pos = torch.arange(0.0, max_len).unsqueeze(1) * div
        self.table[:, 0::2] = torch.sin(pos)
        self.table[:, 1::2] = torch.cos(pos)

    def forward(self, x, start=0):
        return x + self.table[start:start + x.size(1)].to(x.device)


class ScoreDecoder(nn.Module):
    def __init__(self, vocab, dim=256, max_len=1024):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = PositionalEncoding1D(dim, max_len)
        layer = nn.TransformerDecoderLayer(dim, 8, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, 4)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens, memory):
        x = self.pos(self.embed(tokens))
        return self.out(self.decoder(x, memory))


if __name__ == "__main__":
    dec = ScoreDecoder(100).cuda().half()
    toks = torch.randint(0, 100, (2, 16), device="cuda")
    mem = torch.randn(2, 32, 256, device="cuda", dtype=torch.half)
    print(dec(toks, mem).shape)
