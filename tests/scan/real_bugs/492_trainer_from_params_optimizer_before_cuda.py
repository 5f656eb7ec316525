# source: https://github.com/allenai/allennlp/issues/205
# kind: optimizer_before_move
# bug: the trainer factory built the optimizer from model.parameters() and only afterwards did the Trainer constructor call model.cuda(cuda_device), so optimizers with parameter-shaped state (e.g. Adagrad accumulators) held CPU state for CUDA parameters; the maintainers moved the model to the GPU before constructing the optimizer.
# split: test23
from typing import Dict, Iterable, Optional

import torch
import torch.nn as nn

OPTIMIZERS = {
    "adagrad": torch.optim.Adagrad,
    "adam": torch.optim.Adam,
    "sgd": torch.optim.SGD,
}


def optimizer_from_params(model_parameters, params: Dict):
    params = dict(params)
    kind = params.pop("type", "adam")
    return OPTIMIZERS[kind](model_parameters, **params)


class Trainer:
    def __init__(self, model: nn.Module, optimizer: torch.optim.Optimizer,
                 train_data: Iterable, num_epochs: int = 20,
                 cuda_device: int = -1, grad_clipping: Optional[float] = None):
        self._model = model
        self._optimizer = optimizer
        self._train_data = train_data
        self._num_epochs = num_epochs
        self._cuda_device = cuda_device
        self._grad_clipping = grad_clipping
        if self._cuda_device >= 0:
            self._model = self._model.cuda(self._cuda_device)

    def _move(self, batch):
        if self._cuda_device < 0:
            return batch
        return {k: v.cuda(self._cuda_device) for k, v in batch.items()}

    def train(self):
        for epoch in range(self._num_epochs):
            self._model.train()
            total = 0.0
            for batch in self._train_data:
                batch = self._move(batch)
                self._optimizer.zero_grad()
                loss = self._model(**batch)["loss"]
                loss.backward()
                if self._grad_clipping is not None:
                    nn.utils.clip_grad_norm_(self._model.parameters(), self._grad_clipping)
                self._optimizer.step()
                total += loss.item()
            print(f"epoch {epoch}: loss {total:.4f}")

    @classmethod
    def from_params(cls, model: nn.Module, train_data: Iterable, params: Dict) -> "Trainer":
        params = dict(params)
        num_epochs = params.pop("num_epochs", 20)
        cuda_device = params.pop("cuda_device", -1)
        grad_clipping = params.pop("grad_clipping", None)
        optimizer = optimizer_from_params(model.parameters(), params.pop("optimizer"))  # bug: optimizer_before_move
        return cls(model, optimizer, train_data, num_epochs, cuda_device, grad_clipping)


class Tagger(nn.Module):
    def __init__(self, vocab=100, dim=32, tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, tags)

    def forward(self, tokens, tags):
        logits = self.proj(self.emb(tokens))
        return {"loss": nn.functional.cross_entropy(logits.flatten(0, 1), tags.flatten())}


if __name__ == "__main__":
    data = [{"tokens": torch.randint(0, 100, (4, 7)), "tags": torch.randint(0, 5, (4, 7))} for _ in range(10)]
    cfg = {"num_epochs": 2, "cuda_device": 0, "optimizer": {"type": "adagrad", "lr": 0.1}}
    Trainer.from_params(Tagger(), data, cfg).train()
