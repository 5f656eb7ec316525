# source: https://github.com/RUCAIBox/RecBole/pull/1749
# also: https://github.com/RUCAIBox/RecBole/commit/c5b44e1adb9e86fef59f9d853272b38e4b5513d8
# kind: per_step_host_alloc
# bug: the auto-encoder recommenders' `get_rating_matrix` rebuilt a dense [batch, n_items] rating matrix on the CPU for every batch (`torch.zeros(1).repeat(...)`, filled from CPU history tensors indexed with the CUDA user ids) and only then copied it to the GPU; the fix moves the history tensors to `self.device` once and allocates the matrix with `device=self.device`.
# split: test13
import torch
import torch.nn as nn
import torch.nn.functional as F


class AutoEncoderMixin:
    def build_history_items(self, dataset):
        self.history_item_id, self.history_item_value, _ = dataset.history_item_matrix()

    def get_rating_matrix(self, user):
        col_indices = self.history_item_id[user].flatten()
        row_indices = torch.arange(user.shape[0]).repeat_interleave(self.history_item_id.shape[1], dim=0)
        rating_matrix = torch.zeros(1).repeat(user.shape[0], self.n_items)  # bug: per_step_host_alloc
        rating_matrix.index_put_((row_indices, col_indices), self.history_item_value[user].flatten())
        rating_matrix = rating_matrix.to(self.device)
        return rating_matrix


class MultiDAE(AutoEncoderMixin, nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.n_items = dataset.num_items
        self.device = config["device"]
        self.drop_out = config["dropout_prob"]
        self.build_history_items(dataset)
        dims = [self.n_items, 600, 200]
        self.encoder = nn.Sequential(nn.Linear(dims[0], dims[1]), nn.Tanh(), nn.Linear(dims[1], dims[2]), nn.Tanh())
        self.decoder = nn.Sequential(nn.Linear(dims[2], dims[1]), nn.Tanh(), nn.Linear(dims[1], dims[0]))

    def forward(self, rating_matrix):
        h = F.dropout(F.normalize(rating_matrix), self.drop_out, training=self.training)
        return self.decoder(self.encoder(h))

    def calculate_loss(self, interaction):
        user = interaction["user_id"]
        rating_matrix = self.get_rating_matrix(user)
        z = self.forward(rating_matrix)
        return -(F.log_softmax(z, 1) * rating_matrix).sum(1).mean()


def train_epoch(model, loader, optimizer, device):
    model.train()
    for interaction in loader:
        interaction = {k: v.to(device) for k, v in interaction.items()}
        loss = model.calculate_loss(interaction)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
