# source: https://github.com/pyg-team/pytorch_geometric/pull/5207
# kind: eval_batch_not_moved
# bug: the heterogeneous metapath2vec example moved the embedding model and every training random-walk batch to the GPU, but its test() routine queried the author embeddings with the dataset's label index data['author'].y_index as loaded, still on the CPU, so the periodic evaluation failed with a device mismatch; the fix moves the index to the device in test().
# split: test25
import torch
from torch import nn


class MetaPathEmbedding(nn.Module):
    def __init__(self, num_nodes: dict, dim=128):
        super().__init__()
        self.offsets = {}
        total = 0
        for node_type, n in num_nodes.items():
            self.offsets[node_type] = total
            total += n
        self.embedding = nn.Embedding(total, dim, sparse=True)

    def forward(self, node_type: str, batch: torch.Tensor) -> torch.Tensor:
        return self.embedding(batch + self.offsets[node_type])

    def loss(self, pos_rw: torch.Tensor, neg_rw: torch.Tensor) -> torch.Tensor:
        h_pos = self.embedding(pos_rw)
        h_neg = self.embedding(neg_rw)
        pos = (h_pos[:, :1] * h_pos[:, 1:]).sum(-1)
        neg = (h_neg[:, :1] * h_neg[:, 1:]).sum(-1)
        return -torch.log(torch.sigmoid(pos) + 1e-15).mean() - torch.log(1 - torch.sigmoid(neg) + 1e-15).mean()


device = "cuda" if torch.cuda.is_available() else "cpu"
author_y_index = torch.randint(0, 1000, (300,))
author_y = torch.randint(0, 8, (300,))
model = MetaPathEmbedding({"author": 1000, "paper": 3000, "venue": 50}).to(device)
optimizer = torch.optim.SparseAdam(list(model.parameters()), lr=0.01)
loader = [(torch.randint(0, 4050, (128, 7)), torch.randint(0, 4050, (128, 7))) for _ in range(20)]


def train():
    model.train()
    for pos_rw, neg_rw in loader:
        optimizer.zero_grad()
        loss = model.loss(pos_rw.to(device), neg_rw.to(device))
        loss.backward()
        optimizer.step()


@torch.no_grad()
def test(train_ratio=0.1):
    model.eval()
    z = model("author", batch=author_y_index)  # bug: eval_batch_not_moved
    perm = torch.randperm(z.size(0))
    n_train = int(z.size(0) * train_ratio)
    centroids = torch.stack([z[perm[:n_train]][author_y[perm[:n_train]].to(z.device) == c].mean(0) for c in range(8)])
    pred = torch.cdist(z[perm[n_train:]], centroids).argmin(1)
    return (pred.cpu() == author_y[perm[n_train:]]).float().mean().item()


if __name__ == "__main__":
    for epoch in range(1, 3):
        train()
        print(epoch, test())
