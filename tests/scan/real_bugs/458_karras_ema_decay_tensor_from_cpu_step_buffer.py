# source: https://github.com/lucidrains/ema-pytorch/pull/31
# kind: other
# bug: the post-hoc (Karras) EMA wrapper derived its decay from its `step` buffer, which stays on the CPU because the wrapper itself is never moved with the online model, so `beta` became a CPU tensor and the in-place lerp_ of CUDA EMA weights with that tensor weight failed; the fix turns the decay into a Python float via step.item().
# split: test21
from copy import deepcopy

import numpy as np
import torch
import torch.nn as nn


def sigma_rel_to_gamma(sigma_rel):
    t = sigma_rel ** -2
    return np.roots([1, 7, 16 - t, 12 - t]).real.max().item()


class PowerEMA(nn.Module):
    def __init__(self, model: nn.Module, sigma_rel: float = 0.05, update_every: int = 10):
        super().__init__()
        self.gamma = sigma_rel_to_gamma(sigma_rel)
        self.online_model = [model]
        self.ema_model = deepcopy(model)
        for p in self.ema_model.parameters():
            p.detach_()
        self.update_every = update_every
        self.register_buffer("initted", torch.tensor(False))
        self.register_buffer("step", torch.tensor(0))

    @property
    def model(self):
        return self.online_model[0]

    @property
    def beta(self):
        return (1 - 1 / (self.step + 1)) ** (1 + self.gamma)  # bug: other

    def update(self):
        step = self.step.item()
        self.step += 1
        if step % self.update_every != 0:
            return
        if not self.initted.item():
            for ma, cur in zip(self.ema_model.parameters(), self.model.parameters()):
                ma.data.copy_(cur.data)
            self.initted.data.copy_(torch.tensor(True))
        self.update_moving_average()

    @torch.no_grad()
    def update_moving_average(self):
        current_decay = self.beta
        for ma, cur in zip(self.ema_model.parameters(), self.model.parameters()):
            ma.data.lerp_(cur.data, 1.0 - current_decay)

    def __call__(self, *args, **kwargs):
        return self.ema_model(*args, **kwargs)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
    ema = PowerEMA(net, sigma_rel=0.05, update_every=1)
    opt = torch.optim.SGD(net.parameters(), lr=1e-2)
    for _ in range(5):
        loss = net(torch.randn(32, 16, device=device)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update()
    print(ema(torch.randn(4, 16, device=device)).shape)
