# source: https://github.com/Marker-Inc-Korea/AutoRAG/issues/301
# also: https://github.com/Marker-Inc-Korea/AutoRAG/commit/2f2e2705d0c6c79a7c174e65f71ee231e23070de
# kind: inputs_not_moved
# bug: the ColBERT-style passage reranker loaded its encoder onto CUDA when available, but the embedding helper tokenized the passages on the CPU, sliced them into mini-batches with another helper and fed those CPU slices straight to the GPU encoder (index_select device error); the fix moves each sliced batch to the device (and results back to the CPU before numpy).
# split: test19
import torch
import torch.nn as nn


class ToyTokenizer:
    def __call__(self, texts, max_len=32):
        rows = [[(hash(w) % 20000) + 1 for w in t.split()][:max_len] for t in texts]
        width = max(len(r) for r in rows)
        ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])
        return {"input_ids": ids, "attention_mask": (ids > 0).long()}


class TokenEncoder(nn.Module):
    def __init__(self, vocab=20001, dim=96):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, input_ids, attention_mask):
        return self.proj(self.emb(input_ids)) * attention_mask[..., None]


def slice_tensor(t, batch_size):
    return [t[i:i + batch_size] for i in range(0, t.size(0), batch_size)]


def slice_encoding(enc, batch_size):
    ids = slice_tensor(enc["input_ids"], batch_size)
    mask = slice_tensor(enc["attention_mask"], batch_size)
    return [{"input_ids": a, "attention_mask": b} for a, b in zip(ids, mask)]


@torch.no_grad()
def embed_batch(texts, model, tokenizer, batch_size):
    out = []
    for enc in slice_encoding(tokenizer(texts), batch_size):
        out.append(model(**enc))  # bug: inputs_not_moved
    return [e.cpu() for e in torch.cat(out).unbind(0)]


def late_interaction_score(q, d):
    sim = torch.nn.functional.cosine_similarity(q.unsqueeze(1), d.unsqueeze(0), dim=-1)
    return float(sim.max(dim=1).values.mean())


def rerank(query, passages, top_k=2, batch_size=8):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = TokenEncoder().to(device).eval()
    tok = ToyTokenizer()
    q = embed_batch([query], model, tok, batch_size)[0]
    docs = embed_batch(passages, model, tok, batch_size)
    scores = [late_interaction_score(q, d) for d in docs]
    return sorted(zip(scores, passages), reverse=True)[:top_k]


if __name__ == "__main__":
    print(rerank("gpu memory", ["cuda memory pool", "cooking pasta", "gpu kernels"]))
