# source: https://github.com/allenai/allennlp/issues/583
# also: https://github.com/allenai/allennlp/pull/585
# kind: hardcoded_cpu
# bug: the encoder-decoder's per-step input helper converted the source mask with `.type(torch.FloatTensor)` before attention, which also forces it onto the CPU, so GPU training failed when the CPU mask met the CUDA encoder outputs; the fix uses `.float()`, which keeps the device.
# split: test18
import torch
import torch.nn as nn
import torch.nn.functional as F


class DotAttention(nn.Module):
    def forward(self, query, keys, mask):
        scores = torch.bmm(keys, query.unsqueeze(-1)).squeeze(-1)
        scores = scores.masked_fill(mask == 0, -1e9)
        return F.softmax(scores, dim=-1)


class TinySeq2Seq(nn.Module):
    def __init__(self, src_vocab=500, tgt_vocab=400, emb=32, hid=64):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, emb, padding_idx=0)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb)
        self.encoder = nn.GRU(emb, hid, batch_first=True)
        self.attention = DotAttention()
        self.cell = nn.LSTMCell(emb + hid, hid)
        self.proj = nn.Linear(hid, tgt_vocab)

    def _step_input(self, tokens, hidden, enc_out, enc_mask):
        embedded = self.tgt_emb(tokens)
        enc_mask = enc_mask.type(torch.FloatTensor)  # bug: hardcoded_cpu
        weights = self.attention(hidden, enc_out, enc_mask)
        attended = torch.bmm(weights.unsqueeze(1), enc_out).squeeze(1)
        return torch.cat((attended, embedded), -1)

    def forward(self, src, tgt):
        mask = (src != 0).long()
        enc_out, _ = self.encoder(self.src_emb(src))
        h = enc_out[:, -1]
        c = torch.zeros_like(h)
        logits = []
        for t in range(tgt.size(1) - 1):
            step_in = self._step_input(tgt[:, t], h, enc_out, mask)
            h, c = self.cell(step_in, (h, c))
            logits.append(self.proj(h).unsqueeze(1))
        logits = torch.cat(logits, 1)
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))


if __name__ == "__main__":
    device = torch.device("cuda")
    model = TinySeq2Seq().to(device)
    src = torch.randint(1, 500, (4, 12), device=device)
    tgt = torch.randint(1, 400, (4, 9), device=device)
    model(src, tgt).backward()
