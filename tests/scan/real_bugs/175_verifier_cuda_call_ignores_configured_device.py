# source: https://github.com/Verified-Intelligence/alpha-beta-CROWN/pull/24
# also: https://github.com/Verified-Intelligence/alpha-beta-CROWN/commit/673f5d301123649cbe3fd77968426cff2a75e086
# kind: other
# bug: the incomplete verifier noticed that the wrapped network was on CUDA and moved the input and its bounds with a bare .cuda(), which always targets cuda:0, so with the device argument set to another GPU (e.g. cuda:1) the data and the model ended up on different devices; the fix drops the .cuda() calls and keeps the data on the device it was prepared for.
# split: test6
import numpy as np
import torch


class BoundWrapper:
    def __init__(self, net, in_size, c, device):
        self.net = net.to(device)
        self.c = c
        self.in_size = in_size

    def lower_bound(self, x_lo, x_hi):
        center, radius = (x_hi + x_lo) / 2, (x_hi - x_lo) / 2
        out = self.net(center)
        w = self.net[0].weight
        slack = (radius.flatten(1) @ w.abs().t()).sum(-1, keepdim=True)
        return (self.c @ (out - slack).unsqueeze(-1)).squeeze(-1)


def incomplete_verify(net, data, data_lb, data_ub, spec, device):
    data, data_lb, data_ub = data.to(device), data_lb.to(device), data_ub.to(device)
    c = torch.tensor(np.array([row[0] for row in spec])).to(data)
    thresh = torch.tensor(np.array([row[1] for row in spec])).to(data)
    model = BoundWrapper(net, data.shape, c, device)
    print("prediction:", model.net(data))
    if next(model.net.parameters()).is_cuda:
        data = data.cuda()  # bug: other
        data_lb, data_ub = data_lb.cuda(), data_ub.cuda()  # bug: other
    lb = model.lower_bound(data_lb, data_ub)
    return bool((lb > thresh).all())
