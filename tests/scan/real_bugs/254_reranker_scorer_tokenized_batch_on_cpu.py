# source: https://github.com/aryn-ai/sycamore/pull/983
# also: https://github.com/aryn-ai/sycamore/commit/f41ad9061d39a5d19f85c34329a2eec01c6b4f85
# kind: inputs_not_moved
# bug: the Hugging Face similarity scorer (a cross-encoder reranker) chose its device with a CUDA-if-available helper and loaded the model with `.to(self.device)`, but the tokenizer's `return_tensors="pt"` batch stayed on the CPU and was passed straight to the model, so scoring on a GPU failed with tensors on two devices; the fix appends `.to(self.device)` to the tokenizer call.
# split: test11
from typing import Optional

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer


def choose_device(requested: Optional[str] = None) -> str:
    if requested is not None:
        return requested
    if torch.cuda.is_available():
        return "cuda"
    return "cpu"


class CrossEncoderScorer:
    def __init__(self, model_name: str = "BAAI/bge-reranker-base", batch_size: int = 16,
                 max_tokens: int = 512, device: Optional[str] = None):
        self.device = choose_device(device)
        self.model_name = model_name
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self._model = None
        self._tokenizer = None

    def _lazy_load(self):
        if self._model is None:
            self._tokenizer = AutoTokenizer.from_pretrained(self.model_name)
            self._model = AutoModelForSequenceClassification.from_pretrained(self.model_name).to(self.device)
            self._model.eval()

    def score(self, pairs: list[tuple[str, str]]) -> list[float]:
        self._lazy_load()
        scores = []
        with torch.no_grad():
            for start in range(0, len(pairs), self.batch_size):
                chunk = pairs[start:start + self.batch_size]
                encoded = self._tokenizer(chunk, padding=True, truncation=True, return_tensors="pt",
                                          max_length=self.max_tokens)
                logits = self._model(**encoded, return_dict=True).logits  # bug: inputs_not_moved
                scores.extend(logits.view(-1).float().cpu().tolist())
        return scores

    def rerank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
        scored = self.score([(query, p) for p in passages])
        return sorted(zip(passages, scored), key=lambda t: t[1], reverse=True)
