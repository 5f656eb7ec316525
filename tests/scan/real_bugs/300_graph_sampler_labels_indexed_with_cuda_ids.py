# source: https://github.com/alibaba/graphlearn-for-pytorch/issues/9
# also: https://github.com/alibaba/graphlearn-for-pytorch/pull/10
# kind: inputs_not_moved
# bug: the neighbour sampler ran on the GPU and returned CUDA node ids, but the node labels (and partition books) were kept in CPU memory and indexed directly with those ids, which PyTorch >= 1.13 rejects ("indices should be either on cpu or on the same device as the indexed tensor"); the fix moves the ids to the indexed tensor's device before each lookup.
# split: test13
import torch


class GraphData:
    def __init__(self, indptr, indices, labels, features):
        self.indptr = indptr
        self.indices = indices
        self.node_label = labels          # kept in host memory
        self.node_feat = features.pin_memory()


class GPUNeighborSampler:
    def __init__(self, data, fanouts, device):
        self.data = data
        self.fanouts = fanouts
        self.device = device
        self.indptr = data.indptr.to(device)
        self.indices = data.indices.to(device)

    def sample(self, seeds):
        nodes = seeds.to(self.device)
        frontier = nodes
        for k in self.fanouts:
            start, end = self.indptr[frontier], self.indptr[frontier + 1]
            deg = (end - start).clamp(min=1)
            offs = (torch.rand(frontier.numel(), k, device=self.device) * deg[:, None]).long()
            nbrs = self.indices[(start[:, None] + offs).clamp(max=self.indices.numel() - 1)].flatten()
            frontier = nbrs.unique()
            nodes = torch.cat([nodes, frontier]).unique()
        return nodes

    def collate(self, nodes):
        out = {"ids": nodes}
        node_labels = self.data.node_label
        if node_labels is not None:
            out["nlabels"] = node_labels[nodes]  # bug: inputs_not_moved
        out["nfeats"] = self.data.node_feat[nodes.cpu()].to(self.device, non_blocking=True)
        return out


def loader(data, train_idx, batch_size=1024, device=torch.device("cuda")):
    sampler = GPUNeighborSampler(data, [15, 10], device)
    for i in range(0, train_idx.numel(), batch_size):
        nodes = sampler.sample(train_idx[i : i + batch_size])
        yield sampler.collate(nodes)
