# source: https://github.com/Nixtla/neuralforecast/pull/923
# also: https://github.com/Nixtla/neuralforecast/commit/a3ff19d83815e8c42a88442fa89d2dc0e81ca9fb
# kind: per_step_host_alloc
# bug: the forecasting models built per-call tensors (the Informer decoder input, attention masks, TFT initial states, mixture sampling indices) with torch.zeros/ones/arange on the host and then moved them with .to(x.device) on every forward, one host allocation plus copy per step; the "reduce device transfers" PR creates them directly with device=.
# split: test8
import torch
import torch.nn as nn


class ProbMaskAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, q, kv):
        L, S = q.shape[1], kv.shape[1]
        causal = torch.ones(L, S, dtype=torch.bool, device=q.device).triu(1)
        out, _ = self.attn(q, kv, kv, attn_mask=causal)
        return out


class InformerLite(nn.Module):
    def __init__(self, input_size, horizon, dim=128, heads=4):
        super().__init__()
        self.h = horizon
        self.enc_embed = nn.Linear(1, dim)
        self.dec_embed = nn.Linear(1, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, heads, batch_first=True), 2)
        self.cross = ProbMaskAttention(dim, heads)
        self.proj = nn.Linear(dim, 1)

    def forward(self, insample_y):
        enc = self.encoder(self.enc_embed(insample_y.unsqueeze(-1)))
        x_dec = torch.zeros(size=(len(insample_y), self.h, 1)).to(insample_y.device)  # bug: per_step_host_alloc
        dec = self.cross(self.dec_embed(x_dec), enc)
        return self.proj(dec).squeeze(-1)


def fit(model, loader, epochs=10, device="cuda"):
    model = model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for y_in, y_out in loader:
            y_in, y_out = y_in.to(device), y_out.to(device)
            loss = torch.nn.functional.l1_loss(model(y_in), y_out)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model
