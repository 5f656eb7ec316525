# source: https://github.com/huggingface/transformers/pull/4403
# kind: wrong_device_choice
# bug: when resuming from a checkpoint the trainer read optimizer.pt with a bare torch.load, so every process restored the Adam moments onto the device they were saved from (usually cuda:0), piling all ranks' optimizer state onto one GPU and running it out of memory; the fix passes map_location=self.args.device.
# split: test22
import os
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainArgs:
    output_dir: str = "out"
    learning_rate: float = 5e-5
    num_train_epochs: int = 3
    batch_size: int = 8
    local_rank: int = -1
    warmup_steps: int = 0

    @property
    def device(self) -> torch.device:
        if self.local_rank == -1:
            return torch.device("cuda" if torch.cuda.is_available() else "cpu")
        torch.cuda.set_device(self.local_rank)
        return torch.device("cuda", self.local_rank)


class SimpleTrainer:
    def __init__(self, model: nn.Module, args: TrainArgs, train_dataset):
        self.args = args
        self.model = model.to(args.device)
        self.train_dataset = train_dataset

    def get_optimizers(self, num_training_steps):
        no_decay = ["bias", "LayerNorm.weight"]
        groups = [
            {"params": [p for n, p in self.model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
            {"params": [p for n, p in self.model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
        ]
        optimizer = torch.optim.AdamW(groups, lr=self.args.learning_rate)
        warm = self.args.warmup_steps
        scheduler = LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / max(1, warm)) * max(0.0, 1 - s / num_training_steps))
        return optimizer, scheduler

    def train(self, model_path: Optional[str] = None):
        loader = DataLoader(self.train_dataset, batch_size=self.args.batch_size, shuffle=True)
        t_total = len(loader) * self.args.num_train_epochs
        optimizer, scheduler = self.get_optimizers(t_total)

        if (
            model_path is not None
            and os.path.isfile(os.path.join(model_path, "optimizer.pt"))
            and os.path.isfile(os.path.join(model_path, "scheduler.pt"))
        ):
            optimizer.load_state_dict(torch.load(os.path.join(model_path, "optimizer.pt")))  # bug: wrong_device_choice
            scheduler.load_state_dict(torch.load(os.path.join(model_path, "scheduler.pt")))

        model = self.model
        if self.args.local_rank != -1:
            model = nn.parallel.DistributedDataParallel(
                model, device_ids=[self.args.local_rank], output_device=self.args.local_rank
            )

        for _ in range(self.args.num_train_epochs):
            for inputs, labels in loader:
                inputs, labels = inputs.to(self.args.device), labels.to(self.args.device)
                loss = nn.functional.cross_entropy(model(inputs), labels)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                model.zero_grad()

        os.makedirs(self.args.output_dir, exist_ok=True)
        torch.save(optimizer.state_dict(), os.path.join(self.args.output_dir, "optimizer.pt"))
        torch.save(scheduler.state_dict(), os.path.join(self.args.output_dir, "scheduler.pt"))


if __name__ == "__main__":
    data = TensorDataset(torch.randn(64, 32), torch.randint(0, 4, (64,)))
    trainer = SimpleTrainer(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4)), TrainArgs(), data)
    trainer.train(model_path="out")
