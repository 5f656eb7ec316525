# source: https://github.com/MinishLab/model2vec/pull/86
# kind: numpy_of_device_tensor
# bug: the static-embedding model's save_pretrained passed `self.embedding.weight.numpy()` to the serializer, so saving a model that had been moved to a GPU (e.g. after fine-tuning) raised "can't convert cuda:0 device type tensor to numpy"; the fix copies the weight to the host with .cpu() first.
# split: test21
import json
import os
import tempfile
from typing import Any, Dict, List, Optional

import numpy as np
import torch
from torch import nn


def save_pretrained(folder_path: str, embeddings: np.ndarray, vocab: List[str], config: Dict[str, Any]) -> None:
    os.makedirs(folder_path, exist_ok=True)
    np.save(os.path.join(folder_path, "embeddings.npy"), embeddings)
    with open(os.path.join(folder_path, "vocab.json"), "w") as f:
        json.dump(vocab, f)
    with open(os.path.join(folder_path, "config.json"), "w") as f:
        json.dump(config, f)


class StaticEmbedder(nn.Module):
    def __init__(self, vectors: np.ndarray, vocab: List[str], config: Optional[Dict[str, Any]] = None):
        super().__init__()
        self.vocab = vocab
        self.token_to_id = {t: i for i, t in enumerate(vocab)}
        tensor = torch.from_numpy(vectors)
        self.embedding_bag = nn.EmbeddingBag.from_pretrained(tensor, mode="mean")
        self.embedding = nn.Embedding.from_pretrained(tensor)
        self.config = config or {}

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def tokenize(self, sentences: List[str]):
        ids = [[self.token_to_id.get(w, 0) for w in s.split()] or [0] for s in sentences]
        offsets = torch.tensor(np.cumsum([0] + [len(x) for x in ids[:-1]]), dtype=torch.long)
        flat = torch.tensor([i for x in ids for i in x], dtype=torch.long)
        return flat, offsets

    def forward(self, X):
        ids, offsets = X
        return self.embedding_bag(ids, offsets)

    def encode(self, sentences: List[str]) -> np.ndarray:
        ids, offsets = self.tokenize(sentences)
        with torch.no_grad():
            return self((ids.to(self.device), offsets.to(self.device))).cpu().numpy()

    def save_pretrained(self, path: str) -> None:
        save_pretrained(
            folder_path=path,
            embeddings=self.embedding.weight.numpy(),  # bug: numpy_of_device_tensor
            vocab=self.vocab,
            config=self.config,
        )


if __name__ == "__main__":
    vocab = ["[UNK]"] + [f"w{i}" for i in range(999)]
    model = StaticEmbedder(np.random.randn(1000, 64).astype(np.float32), vocab, {"normalize": False})
    if torch.cuda.is_available():
        model = model.to("cuda")
    print(model.encode(["w1 w2 w3", "w4"]).shape)
    model.save_pretrained(tempfile.mkdtemp())
