# source: https://github.com/huggingface/sentence-transformers/pull/2351
# kind: wrong_device_choice
# bug: the sentence-embedding model remembered the device chosen at construction in self._target_device and encode()/fit() defaulted to it, calling self.to(self._target_device) and moving the batches there, so after a user moved the model with model.cuda() or model.to("cuda:1") every encode call silently moved it (and the inputs) back to the original device; the fix drops _target_device and uses the module's current device.
# split: test25
from typing import List, Optional

import numpy as np
import torch
from torch import nn


def get_device_name() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def batch_to_device(batch, device):
    return {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}


class SentenceEncoder(nn.Sequential):
    def __init__(self, vocab=5000, dim=128, device: Optional[str] = None):
        super().__init__(nn.EmbeddingBag(vocab, dim), nn.Linear(dim, dim))
        if device is None:
            device = get_device_name()
        self._target_device = torch.device(device)

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    def tokenize(self, texts: List[str]):
        ids = [torch.tensor([hash(w) % 5000 for w in t.split()] or [0]) for t in texts]
        offsets = torch.tensor([0] + [len(i) for i in ids[:-1]]).cumsum(0)
        return {"input": torch.cat(ids), "offsets": offsets}

    def forward(self, features):
        emb = self[0](features["input"], features["offsets"])
        return self[1](emb)

    @torch.no_grad()
    def encode(self, sentences: List[str], batch_size=32, device: Optional[str] = None) -> np.ndarray:
        self.eval()
        if device is None:
            device = self._target_device  # bug: wrong_device_choice
        self.to(device)
        out = []
        for start in range(0, len(sentences), batch_size):
            feats = batch_to_device(self.tokenize(sentences[start:start + batch_size]), device)
            out.append(self.forward(feats).cpu())
        return torch.cat(out).numpy()


if __name__ == "__main__":
    model = SentenceEncoder(device="cpu")
    if torch.cuda.is_available():
        model.cuda()
    vecs = model.encode(["hello world", "device placement bugs are subtle"])
    print(vecs.shape, model.device)
