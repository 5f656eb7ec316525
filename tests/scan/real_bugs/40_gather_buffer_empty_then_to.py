# source: https://github.com/awslabs/slapo/pull/50
# also: https://github.com/awslabs/slapo/commit/1189cf36f7412bb5082576dc15ca2151303f6976
# kind: per_step_host_alloc
# bug: the all-gather and reduce-scatter helpers run in every sharded forward allocated their receive buffers with torch.empty(shape, dtype=...).to(inp.device), i.e. on the host first; the fix allocated them directly with device=inp.device.
# split: test2
import torch
import torch.distributed as dist


def gather_on_dim(part, dim, world, group):
    moved = part.transpose(0, dim).contiguous() if dim != 0 else part.contiguous()
    shape = list(moved.shape)
    shape[0] *= world
    recv = torch.empty(shape, dtype=moved.dtype).to(part.device)  # bug: per_step_host_alloc
    dist.all_gather_into_tensor(recv, moved, group=group)
    return recv.transpose(0, dim).contiguous() if dim != 0 else recv


def scatter_on_dim(full, dim, world, group):
    moved = full.transpose(0, dim).contiguous() if dim != 0 else full.contiguous()
    shape = list(moved.shape)
    shape[0] //= world
    recv = torch.empty(shape, dtype=full.dtype).to(full.device)  # bug: per_step_host_alloc
    dist.reduce_scatter_tensor(recv, moved, group=group)
    return recv.transpose(0, dim).contiguous() if dim != 0 else recv


class ShardedLinear(torch.nn.Module):
    def __init__(self, d_in, d_out, world, group=None):
        super().__init__()
        self.inner = torch.nn.Linear(d_in, d_out // world)
        self.world, self.group = world, group

    def forward(self, x):
        return gather_on_dim(self.inner(x), x.dim() - 1, self.world, self.group)
