# source: https://github.com/pyg-team/pytorch_geometric/pull/845
# kind: tensor_no_device_in_forward
# bug: the induced-subgraph helper built its node-relabelling table with torch.zeros(...) and torch.arange(...) without a device, so for a CUDA edge_index with relabel_nodes=True the table lived on the CPU, indexing it with the CUDA mask failed and the relabelled edges would come back on the CPU; the fix creates both on edge_index.device.
# split: test21
import torch
import torch.nn as nn
import torch.nn.functional as F


def induced_subgraph(node_mask, edge_index, edge_attr=None, relabel_nodes=False):
    n_mask = node_mask
    if relabel_nodes:
        n_idx = torch.zeros(n_mask.size(0), dtype=torch.long)  # bug: tensor_no_device_in_forward
        n_idx[n_mask] = torch.arange(int(n_mask.sum().item()))

    mask = n_mask[edge_index[0]] & n_mask[edge_index[1]]
    edge_index = edge_index[:, mask]
    edge_attr = edge_attr[mask] if edge_attr is not None else None
    if relabel_nodes:
        edge_index = n_idx[edge_index]
    return edge_index, edge_attr


class SubgraphPooling(nn.Module):
    def __init__(self, dim, ratio=0.5):
        super().__init__()
        self.score = nn.Linear(dim, 1)
        self.ratio = ratio

    def forward(self, x, edge_index):
        s = self.score(x).squeeze(-1)
        k = max(1, int(self.ratio * x.size(0)))
        keep = torch.zeros(x.size(0), dtype=torch.bool, device=x.device)
        keep[s.topk(k).indices] = True
        sub_edge_index, _ = induced_subgraph(keep, edge_index, relabel_nodes=True)
        return x[keep] * torch.sigmoid(s[keep]).unsqueeze(-1), sub_edge_index


class PoolNet(nn.Module):
    def __init__(self, in_dim, hidden, num_classes):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hidden)
        self.pool = SubgraphPooling(hidden)
        self.lin2 = nn.Linear(hidden, num_classes)

    def forward(self, x, edge_index):
        h = F.relu(self.lin1(x))
        h, edge_index = self.pool(h, edge_index)
        agg = torch.zeros_like(h).index_add_(0, edge_index[1], h[edge_index[0]])
        return self.lin2((h + agg).mean(dim=0, keepdim=True))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PoolNet(16, 32, 3).to(device)
    x = torch.randn(50, 16, device=device)
    edge_index = torch.randint(0, 50, (2, 200), device=device)
    print(model(x, edge_index).shape)
