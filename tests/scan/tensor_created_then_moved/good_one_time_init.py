# Tensors built once: optimizer state set up on the first step, buffers in __init__, host data
# that has to cross to the device anyway.
import torch
from torch import nn


class MyAdam(torch.optim.Optimizer):
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = torch.zeros(1).to(p.device)
                    state["exp_avg"] = torch.zeros(p.shape).cuda()
                state["step"] += 1


class Heads(nn.Module):
    def __init__(self, n):
        super().__init__()
        for i in range(n):
            self.register_buffer(f"mask{i}", torch.ones(4, 4).cuda())


def run(batches, device):
    for ids in batches:
        t = torch.tensor(ids).to(device)
        yield t
