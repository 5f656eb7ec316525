# source: https://github.com/wenet-e2e/wenet/pull/2413
# also: https://github.com/wenet-e2e/wenet/commit/761db08d535d8a3b9c5cb9af1bd5c6bf9608b978
# kind: attribute_not_buffer
# bug: the speech transformer's sinusoidal positional table was a plain tensor attribute built on the CPU, and every forward re-assigned `self.pe = self.pe.to(x.device)`; module moves and sharded (FSDP) wrapping never saw it, which broke sharded training; the merged fix registers the table with `register_buffer` and drops the per-call move.
# split: test17
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout_rate=0.1, max_len=5000):
        super().__init__()
        self.d_model = d_model
        self.xscale = math.sqrt(d_model)
        self.dropout = nn.Dropout(p=dropout_rate)
        self.max_len = max_len
        self.pe = torch.zeros(max_len, d_model)  # bug: attribute_not_buffer
        position = torch.arange(0, max_len, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(10000.0) / d_model))
        self.pe[:, 0::2] = torch.sin(position * div_term)
        self.pe[:, 1::2] = torch.cos(position * div_term)
        self.pe = self.pe.unsqueeze(0)

    def position_encoding(self, offset, size):
        return self.pe[:, offset:offset + size]

    def forward(self, x, offset=0):
        self.pe = self.pe.to(x.device)
        pos_emb = self.position_encoding(offset, x.size(1))
        x = x * self.xscale + pos_emb
        return self.dropout(x), self.dropout(pos_emb)


class Encoder(nn.Module):
    def __init__(self, idim=80, d_model=256, layers=2):
        super().__init__()
        self.embed = nn.Linear(idim, d_model)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, 4, 1024, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)

    def forward(self, feats):
        x, _ = self.pos(self.embed(feats))
        return self.blocks(x)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    enc = Encoder().to(device)
    opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
    for _ in range(3):
        feats = torch.randn(8, 200, 80, device=device)
        loss = enc(feats).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
