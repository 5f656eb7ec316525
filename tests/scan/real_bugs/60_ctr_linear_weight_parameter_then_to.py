# source: https://github.com/shenweichen/DeepCTR-Torch/issues/87
# kind: other
# bug: the base CTR model wrapped its dense-feature weight as nn.Parameter(torch.Tensor(n, 1)).to(device); on a GPU the .to() returns a plain non-leaf tensor, so the weight was neither registered nor saved in state_dict; the maintainers fixed it (v0.2.4) by moving the tensor before wrapping it.
# split: test2
import torch
import torch.nn as nn


class WideLinear(nn.Module):
    def __init__(self, n_sparse, n_dense, emb_dim=1, device="cpu"):
        super().__init__()
        self.embed = nn.Embedding(n_sparse, emb_dim)
        self.weight = nn.Parameter(torch.Tensor(n_dense, 1)).to(device)  # bug: other
        nn.init.normal_(self.weight, std=1e-4)

    def forward(self, sparse_ids, dense_vals):
        logit = self.embed(sparse_ids).sum(dim=1)
        return logit + dense_vals.matmul(self.weight)


class CTRModel(nn.Module):
    def __init__(self, n_sparse=1000, n_dense=13, device="cuda"):
        super().__init__()
        self.linear = WideLinear(n_sparse, n_dense, device=device)
        self.to(device)

    def forward(self, sparse_ids, dense_vals):
        return torch.sigmoid(self.linear(sparse_ids, dense_vals))
