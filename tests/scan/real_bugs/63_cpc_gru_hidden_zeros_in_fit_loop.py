# source: https://github.com/talipucar/CPC/issues/1
# also: https://github.com/talipucar/CPC/commit/979b370bd808c25a377af159e5adcb9ef13b4624
# kind: inputs_not_moved
# bug: the fit and validation loops built the GRU's initial hidden state with torch.zeros on the CPU and passed it to the CUDA model; the fix created it with device=self.device.
# split: dev2
import torch

from cpc_net import ContrastiveCoder


class Trainer:
    def __init__(self, cfg):
        self.device = torch.device("cuda" if cfg["use_gpu"] and torch.cuda.is_available() else "cpu")
        self.net = ContrastiveCoder(cfg).to(self.device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg["lr"])
        self.width = cfg["gru_width"]

    def fit(self, loader, val_x):
        for epoch in range(10):
            for xb, _ in loader:
                xb = xb.to(self.device).float()
                h0 = torch.zeros(2, xb.size(0), self.width)  # bug: inputs_not_moved
                loss, h = self.net(xb, h0)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            self.validate(val_x)

    @torch.no_grad()
    def validate(self, val_x):
        val_x = val_x.to(self.device)
        h0 = torch.zeros(2, val_x.size(0), self.width)  # bug: inputs_not_moved
        loss, _ = self.net(val_x, h0)
        print("val loss", loss.item())
