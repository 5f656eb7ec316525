# source: https://github.com/Lin-Yijie/Graph-Matching-Networks/pull/5
# also: https://github.com/Lin-Yijie/Graph-Matching-Networks/commit/714dfcdafa690115ed964fa87bd610cc75b5d666
# kind: per_step_host_alloc
# bug: the scatter-sum helper called on every message-passing step built its output with torch.zeros(...).cuda() and a shape tensor with torch.tensor(...).cuda(), costing a host allocation and copy each call; the fix created both with device=data.device.
# split: test2
import torch
import torch.nn as nn


def scatter_rows(values, group_ids, n_groups):
    if group_ids.dim() == 1:
        width = torch.prod(torch.tensor(values.shape[1:])).long().cuda()  # bug: per_step_host_alloc
        group_ids = group_ids.repeat_interleave(width).view(values.shape)
    out = torch.zeros(n_groups, *values.shape[1:]).cuda()  # bug: per_step_host_alloc
    return out.scatter_add(0, group_ids, values)


class MessageLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(2 * dim, dim)
        self.upd = nn.GRUCell(dim, dim)

    def forward(self, nodes, src, dst):
        messages = self.msg(torch.cat([nodes[src], nodes[dst]], dim=1))
        summed = scatter_rows(messages, dst, nodes.shape[0])
        return self.upd(summed, nodes)
