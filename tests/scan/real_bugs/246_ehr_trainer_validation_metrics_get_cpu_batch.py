# source: https://github.com/mikkelfo/CORE-BEHRT/issues/1
# also: https://github.com/mikkelfo/CORE-BEHRT/commit/34f3ec86b37b7f5326622c98f02f52ee01cc2144
# kind: eval_batch_not_moved
# bug: the EHR trainer's `forward_pass` rebound a local name to `self.to_device(batch)`, which returned a new dict of device tensors, so the model saw CUDA inputs but the caller's `batch` stayed on the CPU; the validation loop then handed that CPU batch, together with the CUDA outputs, to the metric functions, which compared CUDA predictions with CPU targets; the fix makes `to_device` move the batch's values in place so every later use sees device tensors.
# split: test11
import torch
from torch.utils.data import DataLoader


def top_k_accuracy(outputs, batch, k=10):
    logits = outputs.logits
    target = batch["target"]
    mask = target != -100
    topk = logits[mask].topk(k, dim=-1).indices
    return (topk == target[mask].unsqueeze(-1)).any(dim=-1).float().mean().item()


class EHRTrainer:
    def __init__(self, model, train_dataset, val_dataset, optimizer, metrics, batch_size=32, collate_fn=None):
        self.device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        self.model = model.to(self.device)
        self.train_dataset = train_dataset
        self.val_dataset = val_dataset
        self.optimizer = optimizer
        self.metrics = metrics
        self.batch_size = batch_size
        self.collate_fn = collate_fn

    def to_device(self, batch):
        return {key: value.to(self.device) for key, value in batch.items()}

    def forward_pass(self, batch):
        batch = self.to_device(batch)
        return self.model(
            input_ids=batch["concept"],
            attention_mask=batch["attention_mask"],
            token_type_ids=batch.get("segment"),
            labels=batch.get("target"),
        )

    def train_epoch(self):
        self.model.train()
        loader = DataLoader(self.train_dataset, batch_size=self.batch_size, shuffle=True, collate_fn=self.collate_fn)
        for batch in loader:
            outputs = self.forward_pass(batch)
            outputs.loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()

    def validate(self):
        self.model.eval()
        loader = DataLoader(self.val_dataset, batch_size=self.batch_size, shuffle=False, collate_fn=self.collate_fn)
        val_loss = 0.0
        values = {name: [] for name in self.metrics}
        with torch.no_grad():
            for batch in loader:
                outputs = self.forward_pass(batch)
                val_loss += outputs.loss.item()
                for name, fn in self.metrics.items():
                    values[name].append(fn(outputs, batch))  # bug: eval_batch_not_moved
        self.model.train()
        return val_loss / max(len(loader), 1), {n: sum(v) / max(len(v), 1) for n, v in values.items()}
