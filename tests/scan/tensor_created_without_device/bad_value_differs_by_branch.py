# A value that one branch computes from the inputs (on their device) and the other makes on the CPU:
# the count meets an all-reduce, the padding a torch.cat.
import torch
import torch.distributed as dist
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def masked_mean(per_item, weights=None):
    if weights is not None:
        per_item = per_item * weights
        count = weights.sum()
    else:
        count = torch.tensor(per_item.numel())  # expect: code.tensor_created_without_device
    dist.all_reduce(count)
    return per_item.sum() / count


class PairFeatures(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def pair_terms(self, h):
        return torch.einsum("ik,jk->ijk", h, h)

    def forward(self, h):
        n = h.shape[0]
        pairs = self.pair_terms(h) if n > 1 else torch.zeros((n, n, h.shape[1])).float()  # expect: code.tensor_created_without_device
        rows = self.proj(h)[:, None, :].expand(n, n, -1)
        return torch.cat((rows, pairs), dim=-1)


model = PairFeatures().to(device)
