# source: https://github.com/enoche/MMRec/issues/21
# also: https://github.com/enoche/MMRec/commit/3de1ff73ba1cb32951c1e82077644cdc0436660d
# kind: other
# bug: the layer-refined GCN recommender kept its edge list and edge weights on the CPU but, on the epochs that prune edges at random, moved the sampled keep-indices to `self.device` before indexing that CPU edge list, so GPU training failed with a device mismatch; the maintainer's fix drops the `.to(self.device)` so the indices stay with the edges (the pruned adjacency is moved to the device afterwards).
# split: test13
import random

import numpy as np
import torch
import torch.nn as nn


class LayerRefinedGCN(nn.Module):
    def __init__(self, rows: np.ndarray, cols: np.ndarray, n_users: int, n_items: int, dim=64, dropout=0.1, device="cuda"):
        super().__init__()
        self.n_users, self.n_items, self.dropout, self.device = n_users, n_items, dropout, device
        self.user_emb = nn.Parameter(nn.init.xavier_uniform_(torch.empty(n_users, dim)))
        self.item_emb = nn.Parameter(nn.init.xavier_uniform_(torch.empty(n_items, dim)))
        self.edge_indices = torch.stack([torch.from_numpy(rows), torch.from_numpy(cols)]).long()
        self.edge_values = self._normalize(self.edge_indices)
        self.pruning_random = False
        self.masked_adj = None

    def _normalize(self, idx):
        size = torch.Size((self.n_users, self.n_items))
        adj = torch.sparse_coo_tensor(idx, torch.ones(idx.size(1)), size)
        r = (1e-7 + torch.sparse.sum(adj, -1).to_dense()).pow(-0.5)
        c = (1e-7 + torch.sparse.sum(adj.t(), -1).to_dense()).pow(-0.5)
        return r[idx[0]] * c[idx[1]]

    def prune_edges_for_epoch(self):
        keep_len = int(self.edge_values.size(0) * (1.0 - self.dropout))
        if self.pruning_random:
            keep_idx = torch.tensor(random.sample(range(self.edge_values.size(0)), keep_len)).to(self.device)  # bug: other
        else:
            keep_idx = torch.multinomial(self.edge_values, keep_len)
        self.pruning_random = not self.pruning_random
        keep = self.edge_indices[:, keep_idx]
        values = self._normalize(keep)
        keep[1] += self.n_users
        all_idx = torch.cat((keep, torch.flip(keep, [0])), 1)
        n = self.n_users + self.n_items
        self.masked_adj = torch.sparse_coo_tensor(all_idx, torch.cat((values, values)), (n, n)).to(self.device)

    def forward(self):
        x = torch.cat([self.user_emb, self.item_emb])
        layers = [x]
        for _ in range(3):
            x = torch.sparse.mm(self.masked_adj, x)
            layers.append(x)
        out = torch.stack(layers).mean(0)
        return out[: self.n_users], out[self.n_users :]


if __name__ == "__main__":
    rows, cols = np.random.randint(0, 100, 2000), np.random.randint(0, 300, 2000)
    model = LayerRefinedGCN(rows, cols, 100, 300).to("cuda")
    for epoch in range(4):
        model.prune_edges_for_epoch()
        users, items = model()
