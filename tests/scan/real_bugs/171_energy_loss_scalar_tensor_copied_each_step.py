# source: https://github.com/deepmodeling/deepmd-kit/pull/3421
# also: https://github.com/deepmodeling/deepmd-kit/commit/d3dd6044fed98a23053634e0ae4d1a21e2a0a3c6
# kind: per_step_host_alloc
# bug: the PyTorch energy loss started every call with loss = torch.tensor(0.0, dtype=..., device=DEVICE), which builds the constant on the host and copies it to the GPU, a blocking host-to-device transfer (with a stream synchronize) on every training step; the fix creates it with torch.zeros(1, dtype=..., device=DEVICE)[0] so the loss runs fully asynchronously.
# split: test6
import torch

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
FLOAT = torch.float64


class EnergyForceLoss:
    def __init__(self, start_lr, start_pref_e=0.02, limit_pref_e=1.0, start_pref_f=1000.0, limit_pref_f=1.0):
        self.start_lr = start_lr
        self.start_pref_e, self.limit_pref_e = start_pref_e, limit_pref_e
        self.start_pref_f, self.limit_pref_f = start_pref_f, limit_pref_f

    def __call__(self, pred, label, natoms, learning_rate):
        coef = learning_rate / self.start_lr
        pref_e = self.limit_pref_e + (self.start_pref_e - self.limit_pref_e) * coef
        pref_f = self.limit_pref_f + (self.start_pref_f - self.limit_pref_f) * coef
        loss = torch.tensor(0.0, dtype=FLOAT, device=DEVICE)  # bug: per_step_host_alloc
        report = {}
        if "energy" in pred:
            diff_e = label["energy"] - pred["energy"]
            l2_e = torch.mean(diff_e * diff_e)
            loss = loss + pref_e / natoms * l2_e
            report["rmse_e"] = l2_e.sqrt().detach() / natoms
        if "force" in pred:
            diff_f = (label["force"] - pred["force"]).view(-1)
            l2_f = torch.mean(diff_f * diff_f)
            loss = loss + pref_f * l2_f
            report["rmse_f"] = l2_f.sqrt().detach()
        return loss, report


def train(model, loader, optimizer, scheduler, loss_fn, natoms, steps):
    model.to(DEVICE)
    it = iter(loader)
    for _ in range(steps):
        batch = {k: v.to(DEVICE) for k, v in next(it).items()}
        pred = model(batch["coord"], batch["atype"], batch["box"])
        loss, _ = loss_fn(pred, batch, natoms, scheduler.get_last_lr()[0])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
