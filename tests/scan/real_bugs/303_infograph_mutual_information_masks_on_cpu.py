# source: https://github.com/deepchem/deepchem/pull/3301
# also: https://github.com/deepchem/deepchem/commit/b8e29cf7fe0c2c3c4c9d80e82a656fbbc4a5f6e4
# kind: tensor_no_device_in_forward
# bug: the InfoGraph-style global and local mutual-information losses built their positive/negative masks with `torch.eye(num_graphs)` / `torch.zeros(...)` / `torch.ones(...)` and no device on every call, then multiplied them with the encoders' CUDA score matrix, so unsupervised graph pre-training failed on the GPU; the fix moves the masks to the encodings' device.
# split: test13
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def positive_expectation(p, average=True):
    e = math.log(2.0) - F.softplus(-p)
    return e.mean() if average else e


def negative_expectation(q, average=True):
    e = F.softplus(-q) + q - math.log(2.0)
    return e.mean() if average else e


class GlobalMutualInformationLoss:
    def create_loss(self, average_loss=False):
        def loss(global_enc, global_enc2):
            num_graphs = global_enc.shape[0]
            pos_mask = torch.eye(num_graphs)  # bug: tensor_no_device_in_forward
            neg_mask = 1 - pos_mask
            res = torch.mm(global_enc, global_enc2.t())
            e_pos = (positive_expectation(res * pos_mask, average_loss) * pos_mask).sum() / pos_mask.sum()
            e_neg = (negative_expectation(res * neg_mask, average_loss) * neg_mask).sum() / neg_mask.sum()
            return e_neg - e_pos

        return loss


class GraphEncoder(nn.Module):
    def __init__(self, in_dim, dim):
        super().__init__()
        self.lin1, self.lin2 = nn.Linear(in_dim, dim), nn.Linear(dim, dim)

    def forward(self, x, adj, graph_index, num_graphs):
        h = F.relu(self.lin1(adj @ x))
        h = F.relu(self.lin2(adj @ h))
        pooled = torch.zeros(num_graphs, h.shape[1], device=h.device).index_add_(0, graph_index, h)
        return pooled, h


class InfoGraph(nn.Module):
    def __init__(self, in_dim=30, dim=64):
        super().__init__()
        self.encoder = GraphEncoder(in_dim, dim)
        self.global_d = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.global_d2 = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.mi_loss = GlobalMutualInformationLoss().create_loss()

    def training_loss(self, x, adj, graph_index, num_graphs):
        g, _ = self.encoder(x, adj, graph_index, num_graphs)
        return self.mi_loss(self.global_d(g), self.global_d2(g))


def pretrain(batches, device=torch.device("cuda"), epochs=20):
    model = InfoGraph().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        for x, adj, graph_index, num_graphs in batches:
            x, adj, graph_index = x.to(device), adj.to(device), graph_index.to(device)
            loss = model.training_loss(x, adj, graph_index, num_graphs)
            opt.zero_grad()
            loss.backward()
            opt.step()
