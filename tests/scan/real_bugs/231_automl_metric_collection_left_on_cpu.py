# source: https://github.com/gradsflow/gradsflow-automl/issues/105
# also: https://github.com/gradsflow/gradsflow-automl/pull/110
# also: https://github.com/gradsflow/gradsflow-automl/commit/970faf23119a9f20b43cc35db009fb737d4bbe9d
# kind: model_not_moved
# bug: the Keras-like Model wrapper sent the learner (and, through accelerate, the batches) to its device, but created its torchmetrics MetricCollection with no device and added the compiled metrics to it without moving them, so on a GPU the metric states stayed on the CPU and metrics.update(logits, target) in every train/val step failed with a device mismatch; the fix moves the collection to self.device when it is created and after metrics are added.
# split: test10
from typing import Optional

import torch
import torch.nn as nn
from torchmetrics import Accuracy, MetricCollection, Precision


METRICS = {"accuracy": Accuracy, "precision": Precision}


class TrainerModel:
    def __init__(self, learner: nn.Module, device: Optional[str] = None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.learner = learner.to(self.device)
        self.metrics = MetricCollection([])  # bug: model_not_moved
        self.optimizer = None
        self.loss = None

    def add_metrics(self, *names, num_classes=2):
        for name in names:
            self.metrics.add_metrics(METRICS[name](task="multiclass", num_classes=num_classes))

    def compile(self, lr=3e-4, metrics=("accuracy",), num_classes=2):
        self.optimizer = torch.optim.Adam(self.learner.parameters(), lr=lr)
        self.loss = nn.CrossEntropyLoss()
        self.add_metrics(*metrics, num_classes=num_classes)

    def calculate_metrics(self, logits, target):
        self.metrics.update(logits, target)
        return self.metrics.compute()

    def train_step(self, batch):
        inputs, target = batch[0].to(self.device), batch[1].to(self.device)
        self.optimizer.zero_grad()
        logits = self.learner(inputs)
        loss = self.loss(logits, target)
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item(), "metrics": self.calculate_metrics(logits, target)}

    def val_step(self, batch):
        inputs, target = batch[0].to(self.device), batch[1].to(self.device)
        with torch.no_grad():
            logits = self.learner(inputs)
        return {"loss": self.loss(logits, target).item(), "metrics": self.calculate_metrics(logits, target)}

    def fit(self, train_loader, val_loader, epochs=1):
        for _ in range(epochs):
            for batch in train_loader:
                self.train_step(batch)
            for batch in val_loader:
                self.val_step(batch)
            self.metrics.reset()
