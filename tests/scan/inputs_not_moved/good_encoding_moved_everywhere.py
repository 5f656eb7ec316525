# Every function moves what the tokenizer returns, or a function keeps everything on the CPU in a
# file that never moves the tokenizer's output.
import torch
from torch import nn

DEVICE = torch.device("cuda")


class Tokenizer:
    def __call__(self, texts):
        ids = torch.tensor([[hash(w) % 1000 for w in t.split()][:8] + [0] * 8 for t in texts])[:, :8]
        return {"input_ids": ids}


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(1000, 16)

    def forward(self, input_ids):
        return self.emb(input_ids).mean(1)


def embed_documents(docs, tokenizer, model):
    batch = {k: v.to(DEVICE) for k, v in tokenizer(docs).items()}
    return model(**batch)


def embed_query(query, tokenizer, model):
    q = tokenizer([query])
    q = {k: v.to(DEVICE) for k, v in q.items()}
    return model(**q)


def count_tokens(text, counter):
    enc = counter(text)
    return len(enc)


encoder = Encoder().to(DEVICE)
