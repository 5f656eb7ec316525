# source: https://github.com/huggingface/transformers/pull/44782
# also: https://github.com/huggingface/transformers/issues/44737
# kind: per_step_host_alloc
# bug: the permutation-LM's relative positional encoding built its frequency and position ranges with torch.arange(...) and no device, so on every forward pass the whole sinusoidal table was computed on the CPU and then copied to the GPU by the caller; the fix passes the hidden states' device into the helper and creates the ranges there.
# split: test19
import torch
import torch.nn as nn


class RelPosTransformer(nn.Module):
    def __init__(self, vocab=32000, d_model=256, n_layers=2, clamp_len=-1):
        super().__init__()
        self.d_model = d_model
        self.clamp_len = clamp_len
        self.word_embedding = nn.Embedding(vocab, d_model)
        self.r_proj = nn.Linear(d_model, d_model, bias=False)
        self.layers = nn.ModuleList(
            [nn.TransformerEncoderLayer(d_model, 4, 4 * d_model) for _ in range(n_layers)]
        )
        self.dropout = nn.Dropout(0.1)

    @staticmethod
    def positional_embedding(pos_seq, inv_freq, bsz):
        sinusoid = torch.einsum("i,d->id", pos_seq, inv_freq)
        pos_emb = torch.cat([sinusoid.sin(), sinusoid.cos()], dim=-1)[:, None, :]
        return pos_emb.expand(-1, bsz, -1)

    def relative_positional_encoding(self, qlen, klen, bsz):
        freq_seq = torch.arange(0, self.d_model, 2.0, dtype=torch.float)  # bug: per_step_host_alloc
        inv_freq = 1 / torch.pow(10000, freq_seq / self.d_model)
        fwd_pos_seq = torch.arange(klen, -qlen, -1.0, dtype=torch.float)
        if self.clamp_len > 0:
            fwd_pos_seq = fwd_pos_seq.clamp(-self.clamp_len, self.clamp_len)
        return self.positional_embedding(fwd_pos_seq, inv_freq, bsz)

    def forward(self, input_ids):
        qlen, bsz = input_ids.shape
        h = self.dropout(self.word_embedding(input_ids))
        pos_emb = self.relative_positional_encoding(qlen, qlen, bsz).to(h.device)
        r = self.r_proj(self.dropout(pos_emb))
        for layer in self.layers:
            h = layer(h + r[:qlen])
        return h


if __name__ == "__main__":
    model = RelPosTransformer().cuda()
    opt = torch.optim.Adam(model.parameters(), 1e-4)
    for _ in range(20):
        ids = torch.randint(0, 32000, (128, 8), device="cuda")
        loss = model(ids).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
