# source: https://github.com/babylm/evaluation-pipeline-2025/pull/7
# also: https://github.com/babylm/evaluation-pipeline-2025/commit/21b1db7d36827034322137fdc717d22f97975593
# kind: loaded_weights_not_moved
# bug: the fine-tuning Trainer built a classifier around a from_pretrained backbone (plus an EMA copy) but never moved either to self.device, while every batch was moved there, so CUDA fine-tuning broke; the fix calls .to(self.device) on both models after creating them.
# split: test5
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import AutoModel


class SequenceClassifier(nn.Module):
    def __init__(self, name, num_labels):
        super().__init__()
        self.backbone = AutoModel.from_pretrained(name)
        self.head = nn.Linear(self.backbone.config.hidden_size, num_labels)

    def forward(self, ids, mask):
        hidden = self.backbone(input_ids=ids, attention_mask=mask).last_hidden_state
        return self.head(hidden[:, 0])


class FinetuneTrainer:
    def __init__(self, args, device):
        self.args = args
        self.device = device
        self._init_model()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=args.lr)

    def _init_model(self):
        self.model = SequenceClassifier(self.args.model_name, self.args.num_labels)  # bug: loaded_weights_not_moved
        self.ema_model = copy.deepcopy(self.model)
        for p in self.ema_model.parameters():
            p.requires_grad = False

    def train_epoch(self, loader):
        self.model.train()
        for ids, mask, labels in loader:
            ids = ids.to(device=self.device)
            mask = mask.to(device=self.device)
            labels = labels.to(device=self.device)
            loss = F.cross_entropy(self.model(ids, mask), labels)
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
