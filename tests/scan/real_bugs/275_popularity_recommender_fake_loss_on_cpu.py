# source: https://github.com/RUCAIBox/RecBole/pull/1873
# also: https://github.com/RUCAIBox/RecBole/commit/96eb311b029c0a399df452cbc612460e8f87d44e
# kind: tensor_no_device_in_forward
# bug: the popularity baseline counts items on the model's device in `calculate_loss` but returned a freshly built `nn.Parameter(torch.zeros(1))` as its dummy loss, which lives on the CPU; the trainer, running the model on CUDA with several GPUs, then failed with "Expected all tensors to be on the same device ... cuda:x and cpu" when it combined and backpropagated the per-rank losses; the merged fix moves the dummy loss to `self.device`.
# split: test12
import torch
import torch.distributed as dist
import torch.nn as nn


class PopularityRecommender(nn.Module):
    def __init__(self, n_items, device):
        super().__init__()
        self.device = device
        self.item_cnt = torch.zeros(n_items, 1, dtype=torch.long, device=device)
        self.max_cnt = None
        self.fake_loss = nn.Parameter(torch.zeros(1))

    def forward(self):
        pass

    def calculate_loss(self, interaction):
        item = interaction["item_id"]
        self.item_cnt[item, :] = self.item_cnt[item, :] + 1
        self.max_cnt = torch.max(self.item_cnt, dim=0)[0]
        return nn.Parameter(torch.zeros(1))  # bug: tensor_no_device_in_forward

    def predict(self, interaction):
        item = interaction["item_id"]
        return torch.true_divide(self.item_cnt[item, :], self.max_cnt).squeeze(-1)


class Trainer:
    def __init__(self, model, device, multi_gpu=False):
        self.model = model
        self.device = device
        self.multi_gpu = multi_gpu
        self.optimizer = torch.optim.SGD([model.fake_loss], lr=0.0)

    def sync_loss(self, loss):
        if self.multi_gpu:
            anchor = sum(p.sum() * 0 for p in self.model.parameters())
            loss = loss + anchor.to(self.device)
            dist.all_reduce(loss)
        return loss

    def train_epoch(self, loader):
        total = 0.0
        for interaction in loader:
            interaction = {k: v.to(self.device) for k, v in interaction.items()}
            self.optimizer.zero_grad()
            loss = self.sync_loss(self.model.calculate_loss(interaction))
            loss.sum().backward()
            self.optimizer.step()
            total += loss.sum().item()
        return total
