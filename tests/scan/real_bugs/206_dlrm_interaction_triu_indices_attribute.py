# source: https://github.com/hpcaitech/CachedEmbedding/pull/2
# also: https://github.com/hpcaitech/CachedEmbedding/commit/99910651e45a18fff3a65587f5cc83fcbb6a8c26
# kind: attribute_not_buffer
# bug: the DLRM interaction layer stored torch.triu_indices(...) as a plain attribute, so model.to(cuda) left it on the CPU and every forward indexed the CUDA interaction matrix with CPU indices, paying an implicit host-to-device copy (aten::copy_) per step; the fix registers it as a non-persistent buffer, which halved the copy overhead in the profile.
# split: test8
import torch
import torch.nn as nn


class PairwiseInteraction(nn.Module):
    def __init__(self, num_sparse_features):
        super().__init__()
        self.num_sparse = num_sparse_features
        self.pair_idx = torch.triu_indices(num_sparse_features + 1, num_sparse_features + 1, offset=1)  # bug: attribute_not_buffer

    def forward(self, dense, sparse):
        if self.num_sparse <= 0:
            return dense
        stacked = torch.cat((dense.unsqueeze(1), sparse), dim=1)
        gram = torch.bmm(stacked, stacked.transpose(1, 2))
        flat = gram[:, self.pair_idx[0], self.pair_idx[1]]
        return torch.cat((dense, flat), dim=1)


class TinyDLRM(nn.Module):
    def __init__(self, num_dense, table_sizes, dim):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(num_dense, dim), nn.ReLU())
        self.tables = nn.ModuleList(nn.EmbeddingBag(n, dim, mode="sum") for n in table_sizes)
        self.interact = PairwiseInteraction(len(table_sizes))
        f = len(table_sizes)
        self.top = nn.Sequential(nn.Linear(dim + f * (f + 1) // 2, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, dense, sparse_ids, offsets):
        d = self.bottom(dense)
        s = torch.stack([t(ids, off) for t, ids, off in zip(self.tables, sparse_ids, offsets)], dim=1)
        return self.top(self.interact(d, s))


if __name__ == "__main__":
    model = TinyDLRM(13, [1000] * 8, 16).to("cuda")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(100):
        dense = torch.rand(256, 13, device="cuda")
        ids = [torch.randint(0, 1000, (256,), device="cuda") for _ in range(8)]
        offs = [torch.arange(256, device="cuda") for _ in range(8)]
        loss = model(dense, ids, offs).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
