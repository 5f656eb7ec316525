# source: https://github.com/huggingface/sentence-transformers/pull/2378
# kind: model_not_moved
# bug: once the sentence encoder started placing itself on CUDA as soon as it was loaded, the pair-classification softmax loss still built its nn.Linear classifier head on the CPU, so using the loss (or the label-accuracy evaluator that calls it) outside the fit loop fed CUDA embeddings into a CPU layer; the fix creates the head with device=model.device.
# split: test22
import logging
from typing import Callable, Dict, Iterable, List

import torch
from torch import Tensor, nn
from torch.utils.data import DataLoader

logger = logging.getLogger(__name__)


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size=30522, dim=384):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)
        self.to(torch.device("cuda" if torch.cuda.is_available() else "cpu"))

    @property
    def device(self):
        return next(self.parameters()).device

    def get_sentence_embedding_dimension(self):
        return self.proj.out_features

    def forward(self, features: Dict[str, Tensor]):
        emb = self.proj(self.embed(features["input_ids"]))
        return {"sentence_embedding": emb}


class PairSoftmaxLoss(nn.Module):
    def __init__(self, model: SentenceEncoder, sentence_embedding_dimension: int, num_labels: int,
                 concat_rep: bool = True, concat_diff: bool = True, concat_mul: bool = False,
                 loss_fct: Callable = nn.CrossEntropyLoss()):
        super().__init__()
        self.model = model
        self.num_labels = num_labels
        self.concat_rep = concat_rep
        self.concat_diff = concat_diff
        self.concat_mul = concat_mul
        n_vectors = (2 if concat_rep else 0) + int(concat_diff) + int(concat_mul)
        logger.info("Softmax loss: #Vectors concatenated: %d", n_vectors)
        self.classifier = nn.Linear(n_vectors * sentence_embedding_dimension, num_labels)  # bug: model_not_moved
        self.loss_fct = loss_fct

    def forward(self, sentence_features: Iterable[Dict[str, Tensor]], labels: Tensor = None):
        rep_a, rep_b = [self.model(f)["sentence_embedding"] for f in sentence_features]
        parts: List[Tensor] = []
        if self.concat_rep:
            parts += [rep_a, rep_b]
        if self.concat_diff:
            parts.append(torch.abs(rep_a - rep_b))
        if self.concat_mul:
            parts.append(rep_a * rep_b)
        output = self.classifier(torch.cat(parts, 1))
        if labels is not None:
            return self.loss_fct(output, labels.view(-1))
        return (rep_a, rep_b), output


def batch_to_device(batch, device):
    features, labels = batch
    features = [{k: v.to(device) for k, v in f.items()} for f in features]
    return features, labels.to(device)


class LabelAccuracyEvaluator:
    def __init__(self, dataloader: DataLoader, softmax_model: PairSoftmaxLoss):
        self.dataloader = dataloader
        self.softmax_model = softmax_model

    def __call__(self, model: SentenceEncoder) -> float:
        model.eval()
        correct, total = 0, 0
        for batch in self.dataloader:
            features, label_ids = batch_to_device(batch, model.device)
            with torch.no_grad():
                _, prediction = self.softmax_model(features, labels=None)
            total += prediction.size(0)
            correct += torch.argmax(prediction, dim=1).eq(label_ids).sum().item()
        return correct / total


if __name__ == "__main__":
    encoder = SentenceEncoder()
    loss = PairSoftmaxLoss(encoder, encoder.get_sentence_embedding_dimension(), num_labels=3)
    batch = ([{"input_ids": torch.randint(0, 30522, (8, 16))}, {"input_ids": torch.randint(0, 30522, (8, 16))}],
             torch.randint(0, 3, (8,)))
    print(LabelAccuracyEvaluator([batch], loss)(encoder))
