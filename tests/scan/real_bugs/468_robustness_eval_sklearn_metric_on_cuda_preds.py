# source: https://github.com/robustness-gym/robustness-gym/pull/39
# kind: numpy_of_device_tensor
# bug: the model wrapper moved the concatenated predictions and labels back to its (CUDA) device before handing them to scikit-learn metric helpers, which convert their inputs with numpy and so failed for GPU models; the fix moves tensors to the CPU at the top of compute_metric.
# split: test22
from typing import Callable, Dict, List, Sequence, Union

import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import accuracy_score, f1_score


def accuracy(predictions: Union[list, np.ndarray, torch.Tensor], labels: Union[list, np.ndarray, torch.Tensor]):
    return accuracy_score(y_true=labels, y_pred=predictions)  # bug: numpy_of_device_tensor


def f1_macro(predictions, labels):
    return f1_score(y_true=labels, y_pred=predictions, average="macro")


def class_distribution(labels, num_classes):
    labels = np.asarray(labels)
    uniq, counts = np.unique(labels, return_counts=True)
    dist = np.zeros(num_classes)
    dist[uniq.astype(int)] = counts / labels.shape[0]
    return dist


def compute_metric(metric: str, predictions: Union[Sequence, torch.Tensor], labels: Union[Sequence, torch.Tensor], num_classes: int):
    if metric == "accuracy":
        return accuracy(predictions=predictions, labels=labels)
    if metric == "f1_macro":
        return f1_macro(predictions=predictions, labels=labels)
    if metric == "class_dist":
        return class_distribution(labels, num_classes)
    raise NotImplementedError(metric)


class WrappedClassifier:
    def __init__(self, model: nn.Module, device: str = "cuda"):
        self.device = device
        self.model = model.to(device)
        self.model.eval()

    @torch.no_grad()
    def predict_batch(self, batch: Dict[str, List], input_columns: List[str]) -> Dict[str, torch.Tensor]:
        feats = torch.tensor(batch[input_columns[0]], dtype=torch.float32, device=self.device)
        logits = self.model(feats)
        return {"logits": logits, "pred": logits.argmax(dim=-1)}

    def evaluate(self, dataset: Dict[str, List], input_columns: List[str], output_column: str,
                 num_classes: int, metrics: List[str], batch_size: int = 32, coerce_fn: Callable = None):
        predictions, targets = [], []
        n = len(dataset[output_column])
        for idx in range(0, n, batch_size):
            batch = {k: v[idx: idx + batch_size] for k, v in dataset.items()}
            out = self.predict_batch(batch, input_columns)
            if coerce_fn:
                out = coerce_fn(out)
            predictions.append(out["pred"])
            targets.append(torch.tensor(batch[output_column]))

        pred = torch.cat(predictions).to("cpu")
        labels = torch.cat(targets).to("cpu")

        pred = pred.to(self.device)
        target = labels.to(self.device)
        return {m: compute_metric(m, pred, target, num_classes) for m in metrics}


if __name__ == "__main__":
    clf = WrappedClassifier(nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)))
    data = {"features": np.random.rand(100, 20).tolist(), "label": np.random.randint(0, 3, 100).tolist()}
    print(clf.evaluate(data, ["features"], "label", 3, ["accuracy", "f1_macro"]))
