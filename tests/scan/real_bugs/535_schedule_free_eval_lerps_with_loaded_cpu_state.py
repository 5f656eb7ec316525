# source: https://github.com/facebookresearch/schedule_free/pull/42
# kind: loaded_weights_not_moved
# bug: the schedule-free optimizer's eval()/train() switches interpolate the parameters towards the stored z sequence with p.data.lerp_(end=state["z"], ...); when the optimizer state came from a checkpoint loaded while the parameters were still on the CPU and the model was then moved to the GPU (e.g. evaluation-only runs), z stayed on the CPU and the in-place lerp failed with a device mismatch; the fix moves state["z"] to the parameter's device before the lerp.
# split: test25
import torch
import torch.nn as nn


class SGDScheduleFree(torch.optim.Optimizer):
    def __init__(self, params, lr=1.0, momentum=0.9):
        defaults = dict(lr=lr, momentum=momentum, train_mode=True, k=0, weight_sum=0.0)
        super().__init__(params, defaults)

    def eval(self):
        for group in self.param_groups:
            if group["train_mode"]:
                for p in group["params"]:
                    state = self.state[p]
                    if "z" in state:
                        p.data.lerp_(end=state["z"], weight=1 - 1 / group["momentum"])  # bug: loaded_weights_not_moved
                group["train_mode"] = False

    def train(self):
        for group in self.param_groups:
            if not group["train_mode"]:
                for p in group["params"]:
                    state = self.state[p]
                    if "z" in state:
                        p.data.lerp_(end=state["z"].to(p.device), weight=1 - group["momentum"])
                group["train_mode"] = True

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            group["k"] += 1
            ckp1 = 1.0 / group["k"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "z" not in state:
                    state["z"] = p.detach().clone()
                z = state["z"]
                y = p.data
                z.sub_(p.grad, alpha=group["lr"])
                y.lerp_(end=z, weight=ckp1)
                y.add_(p.grad, alpha=group["lr"] * (group["momentum"] * (1 - ckp1) - 1))


def evaluate_checkpoint(path, loader, device):
    ckpt = torch.load(path, map_location="cpu")
    model = nn.Linear(16, 4)
    model.load_state_dict(ckpt["model"])
    opt = SGDScheduleFree(model.parameters(), lr=0.1)
    opt.load_state_dict(ckpt["optimizer"])
    model.to(device)
    model.eval()
    opt.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
    return correct
