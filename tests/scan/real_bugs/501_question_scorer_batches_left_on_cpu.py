# source: https://github.com/vibrantlabsai/ragas/pull/61
# kind: inputs_not_moved
# bug: the question-generation scorer moved its seq2seq model to the target device (CUDA when available) but fed it the tokenised batches straight from the CPU collate function, so scoring on a GPU machine crashed with a device mismatch; the fix moves the input dict and the labels to the target device before the forward pass.
# split: test24
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, input_ids, attention_mask=None, labels=None):
        h = self.embed(input_ids)
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        return self.out(h)


class QuestionScorer:
    def __init__(self, device=None, max_len=64):
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.target_device = torch.device(device)
        self.model = TinySeq2Seq()
        self.model.eval()
        self.model.to(device)
        self.max_len = max_len
        self.loss_fn = nn.CrossEntropyLoss(reduction="none")

    def collate(self, batch):
        ids = torch.randint(1, 100, (len(batch), self.max_len))
        mask = torch.ones_like(ids)
        labels = torch.where(ids == 0, torch.tensor(-100), ids)
        return {"input_ids": ids, "attention_mask": mask, "labels": labels}, labels

    def loss(self, logits, labels):
        losses = self.loss_fn(logits.view(-1, logits.shape[-1]), labels.view(-1))
        losses = losses.reshape(*labels.shape)
        return np.round([1 - l.mean().item() for l in losses], 3)

    def predict(self, pairs, batch_size=8):
        scores = []
        loader = DataLoader(pairs, batch_size=batch_size, collate_fn=self.collate)
        for inputs, labels in loader:
            with torch.no_grad():
                logits = self.model(**inputs)  # bug: inputs_not_moved
                scores.append(self.loss(logits, labels))
        return np.hstack(scores)


if __name__ == "__main__":
    scorer = QuestionScorer()
    pairs = [("what is x?", "x is a letter")] * 20
    print(scorer.predict(pairs))
