# source: https://github.com/neuro-galaxy/torch_brain/pull/99
# kind: other
# bug: when the extendable-vocabulary embedding grew its vocabulary it replaced its weight with a fresh UninitializedParameter() created without a device, so after the model had been moved to the GPU the re-materialised weight landed back on the CPU and mismatched the copied old embeddings and the inputs; the fix creates the new lazy parameter on the old weight's device.
# split: test21
from collections import OrderedDict
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parameter import UninitializedParameter


class GrowableVocabEmbedding(nn.Module):
    def __init__(self, embedding_dim, init_scale=0.02):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.init_scale = init_scale
        self.weight = UninitializedParameter()
        self.vocab = None

    def is_lazy(self):
        return isinstance(self.weight, UninitializedParameter)

    def initialize_parameters(self, num_embeddings):
        if self.is_lazy():
            with torch.no_grad():
                self.weight.materialize((num_embeddings, self.embedding_dim))
                nn.init.normal_(self.weight, std=self.init_scale)
                self.weight[0].zero_()

    def initialize_vocab(self, words: List[str]):
        self.vocab = OrderedDict([("NA", 0)])
        for i, w in enumerate(words, start=1):
            self.vocab[w] = i
        self.initialize_parameters(len(self.vocab))

    def extend_vocab(self, words: List[str]):
        if self.is_lazy():
            raise ValueError("initialize_vocab() first")
        new_words = [w for w in words if w not in self.vocab]
        for w in new_words:
            self.vocab[w] = len(self.vocab)

        old = self.weight.clone().detach()
        self.weight = UninitializedParameter()  # bug: other
        self.initialize_parameters(len(self.vocab))
        self.weight.data[: len(old)] = old
        return self

    def tokenizer(self, words):
        return [self.vocab[w] for w in words]

    def forward(self, ids):
        return F.embedding(ids, self.weight, padding_idx=0)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    emb = GrowableVocabEmbedding(16)
    emb.initialize_vocab(["session_a", "session_b"])
    emb.to(device)
    emb.extend_vocab(["session_c"])
    ids = torch.tensor(emb.tokenizer(["session_a", "session_c"]), device=device)
    print(emb(ids).shape)
