# source: https://github.com/eugeneyan/obsidian-copilot/pull/4
# also: https://github.com/eugeneyan/obsidian-copilot/commit/14ef2d0847b1994d1ed2bb303fd4397c6f93f77e
# kind: inputs_not_moved
# bug: the semantic-search index moved the document batches to the module-level CUDA device before embedding them, but the query path passed the freshly tokenized query (CPU tensors) straight into the GPU encoder; the fix moves the tokenized query to DEVICE (and the embedding back to the CPU before numpy).
# split: test19
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class HashTokenizer:
    def __call__(self, texts, max_length=64):
        rows = [[hash(w) % 30000 for w in t.split()][:max_length] for t in texts]
        width = max(len(r) for r in rows)
        ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])
        return {"input_ids": ids, "attention_mask": (ids != 0).long()}


class Encoder(nn.Module):
    def __init__(self, vocab=30000, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 256, batch_first=True)

    def forward(self, input_ids, attention_mask):
        return self.layer(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)


def mean_pool(hidden, mask):
    hidden = hidden.masked_fill(~mask[..., None].bool(), 0.0)
    return hidden.sum(1) / mask.sum(1, keepdim=True)


@torch.no_grad()
def embed_documents(docs, tokenizer, model):
    batch = {k: v.to(DEVICE) for k, v in tokenizer(docs).items()}
    out = model(**batch)
    return F.normalize(mean_pool(out, batch["attention_mask"]), dim=1).cpu().numpy()


@torch.no_grad()
def query_semantic(query, tokenizer, model, doc_matrix, n_results=5):
    q = tokenizer([f"query: {query}"])
    out = model(**q)  # bug: inputs_not_moved
    q_emb = F.normalize(mean_pool(out, q["attention_mask"]), dim=1).cpu().numpy()
    sims = (doc_matrix @ q_emb.T).ravel()
    return np.argsort(-sims)[:n_results]


if __name__ == "__main__":
    tok, enc = HashTokenizer(), Encoder().to(DEVICE).eval()
    docs = ["notes on pytorch devices", "grocery list", "weekly review"]
    index = embed_documents(docs, tok, enc)
    print(query_semantic("cuda tensors", tok, enc, index))
