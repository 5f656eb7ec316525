# source: https://github.com/nyu-mll/jiant/pull/776
# also: https://github.com/nyu-mll/jiant/commit/2fb80e1e1a0c09cca9a8bf3c890bb66f156a5635
# kind: other
# bug: the Winograd coreference task's `update_metrics` turned predictions into one-hot rows by indexing an identity table built with an unconditional `torch.eye(depth).cuda()`, so evaluating the task on a CPU-only machine crashed (#773) while the predictions themselves were on the CPU; the merged fix only calls `.cuda()` when CUDA is available.
# split: test12
import torch
import torch.nn as nn


class F1Measure:
    def __init__(self):
        self.tp = self.fp = self.fn = 0

    def __call__(self, one_hot_preds, gold):
        pred = one_hot_preds.argmax(dim=1)
        self.tp += int(((pred == 1) & (gold == 1)).sum())
        self.fp += int(((pred == 1) & (gold == 0)).sum())
        self.fn += int(((pred == 0) & (gold == 1)).sum())

    def get_metric(self, reset=False):
        p = self.tp / max(self.tp + self.fp, 1)
        r = self.tp / max(self.tp + self.fn, 1)
        f1 = 2 * p * r / max(p + r, 1e-12)
        if reset:
            self.tp = self.fp = self.fn = 0
        return p, r, f1


class CoreferenceTask:
    def __init__(self):
        self.f1_scorer = F1Measure()
        self.correct = 0
        self.total = 0

    def update_metrics(self, logits, labels):
        logits, labels = logits.detach(), labels.detach()

        def make_one_hot(batch, depth=2):
            ones = torch.eye(depth).cuda()  # bug: other
            return ones.index_select(0, batch)

        binary_preds = make_one_hot(logits, depth=2)
        label_ints = torch.argmax(labels, dim=1)
        self.f1_scorer(binary_preds, label_ints)
        self.correct += int((binary_preds.long() == labels.long()).all(dim=1).sum())
        self.total += labels.size(0)


def evaluate(model: nn.Module, task: CoreferenceTask, batches, device="cpu"):
    model.to(device).eval()
    with torch.no_grad():
        for inputs, labels in batches:
            preds = model(inputs.to(device)).argmax(dim=-1)
            task.update_metrics(preds, labels.to(device))
    return task.f1_scorer.get_metric(reset=True)[2], task.correct / max(task.total, 1)
