# source: https://github.com/urchade/GLiNER/pull/3
# also: https://github.com/urchade/GLiNER/commit/7032679a965f542c5602f1c467d5f68a2f3e876f
# kind: eval_batch_not_moved
# bug: the span-based NER model's prediction path took a batch straight from `collate_fn` (CPU tensors) and used its span indices with word representations computed on the GPU, so inference on a machine with a GPU failed with a cuda/cpu mismatch; the merged fix passes the model's device into the scoring function and moves the span indices there.
# split: test17
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class SpanScorer(nn.Module):
    def __init__(self, vocab_size=1000, hidden=64, max_width=4, num_types=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.LSTM(hidden, hidden // 2, bidirectional=True, batch_first=True)
        self.span_proj = nn.Linear(2 * hidden, hidden)
        self.type_emb = nn.Embedding(num_types, hidden)
        self.max_width = max_width

    def collate_fn(self, token_ids):
        seqs = [torch.tensor(t) for t in token_ids]
        spans = [torch.tensor([(i, min(i + k, len(t) - 1)) for i in range(len(t)) for k in range(self.max_width)]) for t in token_ids]
        masks = [torch.ones(len(s), dtype=torch.long) for s in spans]
        return {"tokens": pad_sequence(seqs, batch_first=True), "span_idx": pad_sequence(spans, batch_first=True),
                "span_mask": pad_sequence(masks, batch_first=True)}

    def compute_score_eval(self, x):
        device = next(self.parameters()).device
        span_idx = x["span_idx"] * x["span_mask"].unsqueeze(-1)  # bug: eval_batch_not_moved
        word_rep, _ = self.rnn(self.embed(x["tokens"].to(device)))
        start = torch.gather(word_rep, 1, span_idx[..., 0:1].expand(-1, -1, word_rep.size(-1)))
        end = torch.gather(word_rep, 1, span_idx[..., 1:2].expand(-1, -1, word_rep.size(-1)))
        span_rep = self.span_proj(torch.cat([start, end], dim=-1))
        return torch.einsum("bld,cd->blc", span_rep, self.type_emb.weight)

    @torch.no_grad()
    def predict(self, x, threshold=0.5):
        scores = self.compute_score_eval(x)
        return [torch.nonzero(torch.sigmoid(s) > threshold).tolist() for s in scores]


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = SpanScorer().to(device).eval()
    x = model.collate_fn([[5, 17, 42, 8], [9, 3, 77]])
    print(model.predict(x))
