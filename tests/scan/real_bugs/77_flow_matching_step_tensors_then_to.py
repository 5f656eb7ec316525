# source: https://github.com/atong01/conditional-flow-matching/issues/102
# also: https://github.com/atong01/conditional-flow-matching/pull/103
# kind: per_step_host_alloc
# bug: the training step and samplers created noise, time indices and time grids on the CPU and then called .to(device) on every call, adding a host allocation and copy each step; the fix created them with device= directly.
# split: dev2
import torch
from torch import nn

from unet import VelocityNet


class FlowMatcher(nn.Module):
    def __init__(self, net: nn.Module, n_times: int):
        super().__init__()
        self.net, self.n_times = net, n_times

    def training_step(self, x1: torch.Tensor):
        b = x1.size(0)
        x0 = torch.randn(x1.shape).to(x1.device)  # bug: per_step_host_alloc
        t_idx = torch.randint(self.n_times - 1, size=(b,)).to(x1.device)  # bug: per_step_host_alloc
        t = (t_idx.float() / (self.n_times - 1)).view(-1, 1, 1, 1)
        xt = (1 - t) * x0 + t * x1
        return ((self.net(t.flatten(), xt) - (x1 - x0)) ** 2).mean()


def fit(loader, device="cuda"):
    fm = FlowMatcher(VelocityNet(), n_times=100).to(device)
    opt = torch.optim.Adam(fm.parameters(), lr=2e-4)
    for x, _ in loader:
        loss = fm.training_step(x.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
