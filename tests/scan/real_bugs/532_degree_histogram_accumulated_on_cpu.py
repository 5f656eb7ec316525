# source: https://github.com/pyg-team/pytorch_geometric/pull/7830
# kind: cpu_accumulator
# bug: the helper that computes the in-degree histogram for the PNA convolution started its running histogram as torch.zeros(1, dtype=torch.long) on the CPU and then added per-batch torch.bincount results computed from the loader's edge indices, which live on the GPU when the loader yields CUDA batches, so the in-place accumulation mixed devices; the fix moves the running histogram to the bincount's device before accumulating.
# split: test25
import torch
from torch import Tensor


def degree(index: Tensor, num_nodes: int, dtype=torch.long) -> Tensor:
    out = torch.zeros(num_nodes, dtype=dtype, device=index.device)
    return out.scatter_add_(0, index, torch.ones_like(index, dtype=dtype))


class GraphBatch:
    def __init__(self, edge_index: Tensor, num_nodes: int):
        self.edge_index = edge_index
        self.num_nodes = num_nodes

    def to(self, device):
        return GraphBatch(self.edge_index.to(device), self.num_nodes)


def get_degree_histogram(loader) -> Tensor:
    hist = torch.zeros(1, dtype=torch.long)  # bug: cpu_accumulator
    for data in loader:
        deg = degree(data.edge_index[1], num_nodes=data.num_nodes)
        counts = torch.bincount(deg, minlength=hist.numel())
        if counts.numel() > hist.numel():
            counts[: hist.numel()] += hist
            hist = counts
        else:
            hist += counts
    return hist


class DeviceLoader:
    def __init__(self, graphs, device):
        self.graphs = graphs
        self.device = device

    def __iter__(self):
        for g in self.graphs:
            yield g.to(self.device)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    graphs = [GraphBatch(torch.randint(0, 50, (2, 200)), 50) for _ in range(8)]
    print(get_degree_histogram(DeviceLoader(graphs, dev)))
