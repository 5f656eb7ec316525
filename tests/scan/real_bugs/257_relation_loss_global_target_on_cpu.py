# source: https://github.com/jku-vds-lab/paradime/issues/23
# also: https://github.com/jku-vds-lab/paradime/commit/e88d88b27721937b9a5d018c3016278c51d5a8f3
# kind: inputs_not_moved
# bug: with `use_cuda=True` the parametric dimensionality-reduction routine moved the model and every batch to CUDA, but the relation loss compared the batch-wise relations of the CUDA embedding with `global_relations[key].sub(batch['indices'])`, a sub-matrix that the relation container builds with `torch.tensor(numpy_array)` on the CPU, so the loss mixed devices; the fix (commit "make loss device-aware (partial fix for #23)") passes the device into the losses and moves the sub-matrix and the batch data with `.to(device)`.
# split: test11
import numpy as np
import torch
from torch import nn


class SquareRelations:
    def __init__(self, matrix: np.ndarray):
        self.data = matrix

    def sub(self, indices):
        if isinstance(indices, torch.Tensor):
            indices = indices.detach().cpu().numpy()
        return torch.tensor(self.data[np.ix_(indices, indices)])


class PairwiseDistances:
    def compute(self, x):
        return torch.cdist(x, x)


class EmbeddingModel(nn.Module):
    def __init__(self, in_dim, out_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, out_dim))

    def embed(self, x):
        return self.net(x)


class RelationLoss(nn.Module):
    def __init__(self, loss_function=nn.MSELoss(), relation_key="rel", data_key="data"):
        super().__init__()
        self.loss_function = loss_function
        self.relation_key = relation_key
        self.data_key = data_key

    def forward(self, model, global_relations, batch_relations, batch):
        target = global_relations[self.relation_key].sub(batch["indices"])
        pred = batch_relations[self.relation_key].compute(model.embed(batch[self.data_key]))
        return self.loss_function(target, pred)  # bug: inputs_not_moved


class ParametricDR:
    def __init__(self, data: np.ndarray, use_cuda: bool = False):
        self.data = torch.tensor(data, dtype=torch.float32)
        self.model = EmbeddingModel(data.shape[1])
        self.use_cuda = use_cuda and torch.cuda.is_available()
        if self.use_cuda:
            self.model.cuda()
        dists = np.linalg.norm(data[:, None, :] - data[None, :, :], axis=-1).astype(np.float32)
        self.global_relations = {"rel": SquareRelations(dists)}
        self.batch_relations = {"rel": PairwiseDistances()}

    def train(self, epochs=10, batch_size=64, lr=1e-3):
        loss_fn = RelationLoss()
        opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        n = self.data.shape[0]
        for _ in range(epochs):
            perm = torch.randperm(n)
            for start in range(0, n, batch_size):
                idx = perm[start:start + batch_size]
                batch = {"indices": idx, "data": self.data[idx]}
                if self.use_cuda:
                    batch = {k: v.cuda() for k, v in batch.items()}
                opt.zero_grad()
                loss = loss_fn(self.model, self.global_relations, self.batch_relations, batch)
                loss.backward()
                opt.step()
