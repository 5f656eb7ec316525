# source: https://github.com/wochenlong/lora-scripts-next/pull/320
# kind: other
# bug: accelerate loads optimizer state with map_location="cpu", and the Automagic optimizer's custom load_state_dict rebuilt each per-parameter lr_mask from that CPU state itself, bypassing torch's cast to the parameter device, so the first step() after resume crashed with a cuda/cpu mismatch; the fix moves the reconstructed mask to the parameter's device.
# split: test23
import torch
from torch.optim import Optimizer


class Automagic(Optimizer):
    def __init__(self, params, lr=1e-6, min_lr=1e-7, max_lr=1e-3, lr_bump=1e-6, eps=1e-30, beta2=0.999):
        defaults = dict(lr=lr, min_lr=min_lr, max_lr=max_lr, lr_bump=lr_bump, eps=eps, beta2=beta2)
        super().__init__(params, defaults)

    def _init_state(self, p, group):
        state = self.state[p]
        state["step"] = 0
        state["lr_mask"] = torch.full_like(p, group["lr"], dtype=torch.float32)
        state["exp_avg_sq"] = torch.zeros_like(p)
        state["last_polarity"] = torch.zeros_like(p, dtype=torch.bool)

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if "lr_mask" not in self.state[p]:
                    self._init_state(p, group)
                st = self.state[p]
                st["step"] += 1
                g = p.grad
                st["exp_avg_sq"].mul_(group["beta2"]).addcmul_(g, g, value=1 - group["beta2"])
                update = g / (st["exp_avg_sq"].sqrt() + group["eps"])
                polarity = update > 0
                same = polarity == st["last_polarity"]
                st["lr_mask"] = torch.where(same, st["lr_mask"] + group["lr_bump"], st["lr_mask"] - group["lr_bump"])
                st["lr_mask"].clamp_(group["min_lr"], group["max_lr"])
                st["last_polarity"] = polarity
                p.add_(-update * st["lr_mask"].to(p.dtype))

    def state_dict(self):
        sd = super().state_dict()
        sd["lr_masks"] = [self.state[p]["lr_mask"] for g in self.param_groups for p in g["params"]
                          if "lr_mask" in self.state[p]]
        return sd

    def load_state_dict(self, state_dict):
        masks = state_dict.pop("lr_masks", [])
        super().load_state_dict(state_dict)
        params = [p for g in self.param_groups for p in g["params"] if p.requires_grad]
        for p, mask in zip(params, masks):
            if mask.shape != p.shape:
                continue
            self.state[p]["lr_mask"] = mask.float().clone()  # bug: other


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = torch.nn.Linear(16, 16).to(dev)
    opt = Automagic(net.parameters())
    net(torch.randn(4, 16, device=dev)).sum().backward()
    opt.step()
    torch.save(opt.state_dict(), "opt.pt")
    opt2 = Automagic(net.parameters())
    opt2.load_state_dict(torch.load("opt.pt", map_location="cpu"))
    net(torch.randn(4, 16, device=dev)).sum().backward()
    opt2.step()
