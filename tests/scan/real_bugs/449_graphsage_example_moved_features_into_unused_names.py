# source: https://github.com/pyg-team/pytorch_geometric/pull/7568
# kind: to_result_discarded
# bug: the unsupervised GraphSAGE example copied the node features and edges to the GPU into variables `x, edge_index` that were never used, so the link-neighbour loader kept sampling from the CPU graph and every mini-batch (and the whole graph at each evaluation) was copied host-to-device again; the fix moves the graph object itself to the device once (about 40 % faster).
# split: test21
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphData:
    def __init__(self, x, edge_index, y, train_mask, test_mask):
        self.x = x
        self.edge_index = edge_index
        self.y = y
        self.train_mask = train_mask
        self.test_mask = test_mask

    @property
    def num_nodes(self):
        return self.x.size(0)

    def to(self, device, *attrs):
        for name in attrs or ("x", "edge_index", "y", "train_mask", "test_mask"):
            setattr(self, name, getattr(self, name).to(device))
        return self


class EdgeBatch:
    def __init__(self, x, edge_index, edge_label_index, edge_label):
        self.x = x
        self.edge_index = edge_index
        self.edge_label_index = edge_label_index
        self.edge_label = edge_label

    def to(self, device):
        return EdgeBatch(self.x.to(device), self.edge_index.to(device),
                         self.edge_label_index.to(device), self.edge_label.to(device))


class LinkBatchLoader:
    def __init__(self, data, batch_size=256):
        self.data = data
        self.batch_size = batch_size

    def __iter__(self):
        d = self.data
        num_edges = d.edge_index.size(1)
        perm = torch.randperm(num_edges, device=d.edge_index.device)
        for start in range(0, num_edges, self.batch_size):
            pos = d.edge_index[:, perm[start:start + self.batch_size]]
            neg = torch.randint(0, d.num_nodes, pos.shape, device=pos.device)
            label_index = torch.cat([pos, neg], dim=1)
            label = torch.cat([torch.ones(pos.size(1), device=pos.device),
                               torch.zeros(neg.size(1), device=pos.device)])
            yield EdgeBatch(d.x, d.edge_index, label_index, label)


class SAGE(nn.Module):
    def __init__(self, in_channels, hidden_channels):
        super().__init__()
        self.lin1 = nn.Linear(2 * in_channels, hidden_channels)
        self.lin2 = nn.Linear(2 * hidden_channels, hidden_channels)

    @staticmethod
    def aggregate(h, edge_index):
        out = torch.zeros_like(h)
        out.index_add_(0, edge_index[1], h[edge_index[0]])
        deg = torch.bincount(edge_index[1], minlength=h.size(0)).clamp(min=1).unsqueeze(1)
        return out / deg

    def forward(self, x, edge_index):
        h = F.relu(self.lin1(torch.cat([x, self.aggregate(x, edge_index)], dim=-1)))
        return self.lin2(torch.cat([h, self.aggregate(h, edge_index)], dim=-1))


num_nodes, num_feats = 2708, 64
data = GraphData(
    x=torch.randn(num_nodes, num_feats),
    edge_index=torch.randint(0, num_nodes, (2, 10000)),
    y=torch.randint(0, 7, (num_nodes,)),
    train_mask=torch.rand(num_nodes) < 0.5,
    test_mask=torch.rand(num_nodes) < 0.3,
)
train_loader = LinkBatchLoader(data, batch_size=256)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = SAGE(num_feats, hidden_channels=64).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
x, edge_index = data.x.to(device), data.edge_index.to(device)  # bug: to_result_discarded


def train():
    model.train()
    total_loss = 0
    for batch in train_loader:
        batch = batch.to(device)
        optimizer.zero_grad()
        h = model(batch.x, batch.edge_index)
        pred = (h[batch.edge_label_index[0]] * h[batch.edge_label_index[1]]).sum(dim=-1)
        loss = F.binary_cross_entropy_with_logits(pred, batch.edge_label)
        loss.backward()
        optimizer.step()
        total_loss += float(loss) * pred.size(0)
    return total_loss / data.num_nodes


@torch.no_grad()
def test():
    model.eval()
    out = model(data.x.to(device), data.edge_index.to(device)).cpu()
    centroids = torch.stack([out[data.train_mask & (data.y == c)].mean(0) for c in range(7)])
    pred = torch.cdist(out[data.test_mask], centroids).argmin(dim=1)
    return (pred == data.y[data.test_mask]).float().mean().item()


for epoch in range(1, 6):
    loss = train()
    acc = test()
    print(f"Epoch: {epoch:03d}, Loss: {loss:.4f}, Test: {acc:.4f}")
