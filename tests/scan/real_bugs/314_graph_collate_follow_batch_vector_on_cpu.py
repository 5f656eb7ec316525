# source: https://github.com/pyg-team/pytorch_geometric/pull/3214
# also: https://github.com/pyg-team/pytorch_geometric/commit/764ceec99698120e8a667e30625825de14ee5126
# kind: tensor_no_device_in_forward
# bug: when graphs that already lived on the GPU were collated into a mini-batch, the per-attribute assignment vectors (`x_batch` for `follow_batch`, and the top-level `batch`) were built from `torch.arange(...)` / `torch.tensor(...)` with no device, so they landed on the CPU next to CUDA features (issue #3213); the fix records the device of the collated values and builds the aranges and repeat counts on it.
# split: test14
from typing import Dict, List, Sequence

import torch
from torch import Tensor


class Graph:
    def __init__(self, **attrs: Tensor):
        self.attrs: Dict[str, Tensor] = dict(attrs)

    @property
    def num_nodes(self) -> int:
        return int(self.attrs["x"].size(0))

    def to(self, device) -> "Graph":
        return Graph(**{k: v.to(device) for k, v in self.attrs.items()})


def collate_graphs(graphs: List[Graph], follow_batch: Sequence[str] = ()) -> Dict[str, Tensor]:
    out: Dict[str, Tensor] = {}
    for key in graphs[0].attrs:
        values = [g.attrs[key] for g in graphs]
        sizes = torch.tensor([v.size(0) for v in values])
        out[key] = torch.cat(values, dim=0)
        if key in follow_batch:
            batch = torch.arange(len(values)).repeat_interleave(sizes)  # bug: tensor_no_device_in_forward
            out[f"{key}_batch"] = batch

    repeats = torch.tensor([g.num_nodes for g in graphs])
    out["batch"] = torch.arange(len(graphs)).repeat_interleave(repeats)
    out["ptr"] = torch.cat([repeats.new_zeros(1), repeats.cumsum(0)])
    return out


def global_mean_pool(x: Tensor, batch: Tensor, num_graphs: int) -> Tensor:
    summed = x.new_zeros(num_graphs, x.size(-1)).index_add_(0, batch, x)
    counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(-1)
    return summed / counts


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    graphs = [Graph(x=torch.randn(n, 16), pos=torch.randn(n, 3)).to(device) for n in (4, 7, 5)]
    batch = collate_graphs(graphs, follow_batch=["x"])
    pooled = global_mean_pool(batch["x"], batch["x_batch"], num_graphs=len(graphs))
    print(pooled.shape)
