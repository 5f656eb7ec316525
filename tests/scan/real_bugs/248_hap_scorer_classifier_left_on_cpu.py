# source: https://github.com/data-prep-kit/data-prep-kit/pull/1056
# also: https://github.com/data-prep-kit/data-prep-kit/commit/2d71c770e03e000e002dd798364c0e90fa6e68aa
# kind: loaded_weights_not_moved
# bug: the HAP (hate/abuse/profanity) scoring transform chose `device = "cuda:0" if torch.cuda.is_available() else "cpu"` at module level and moved every tokenized batch there, but loaded its classifier with `AutoModelForSequenceClassification.from_pretrained(...)` and never moved it, so on a GPU machine the CPU model received CUDA inputs (issue #1047); the fix appends `.to(device)` to the `from_pretrained` call.
# split: test11
from typing import Any

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

device = "cuda:0" if torch.cuda.is_available() else "cpu"


def split_sentences(text):
    parts = [p.strip() for p in text.replace("!", ".").replace("?", ".").split(".")]
    return [p for p in parts if p]


class ToxicityScorer:
    def __init__(self, config: dict[str, Any]):
        self.model_name = config.get("model_name_or_path", "some-org/hap-classifier-38m")
        self.text_column = config.get("doc_text_column", "contents")
        self.max_length = config.get("max_length", 512)
        self.batch_size = config.get("batch_size", 128)
        self.tokenizer = AutoTokenizer.from_pretrained(self.model_name)
        self.model = AutoModelForSequenceClassification.from_pretrained(self.model_name)  # bug: loaded_weights_not_moved

    def _score_sentences(self, sentences):
        scores = []
        for start in range(0, len(sentences), self.batch_size):
            chunk = sentences[start:start + self.batch_size]
            inputs = self.tokenizer(chunk, max_length=self.max_length, padding=True, truncation=True,
                                    return_tensors="pt").to(device)
            with torch.no_grad():
                logits = self.model(**inputs).logits
            scores.extend(torch.softmax(logits, dim=1)[:, 1].cpu().tolist())
        return scores

    def score_documents(self, documents):
        sentences, owners = [], []
        for i, doc in enumerate(documents):
            parts = split_sentences(" ".join(doc.strip().splitlines()))
            sentences.extend(parts)
            owners.extend([i] * len(parts))
        sent_scores = self._score_sentences(sentences)
        doc_scores = []
        for i in range(len(documents)):
            mine = [s for o, s in zip(owners, sent_scores) if o == i]
            doc_scores.append(max(mine, default=-1.0))
        return doc_scores
