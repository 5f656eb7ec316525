# source: https://github.com/WenjieDu/PyPOTS/pull/837
# also: https://github.com/WenjieDu/PyPOTS/commit/8e04df1dfe0921cf6cf2c0b4d8e3895c45c211b3
# kind: cpu_accumulator
# bug: the quantile CRPS metric started its accumulator as `torch.tensor(0.0)` on the CPU and added the per-quantile losses of CUDA predictions into it in place, which raised a device error for GPU evaluation; the fix allocates it with `device=predictions.device`.
# split: test3
import numpy as np
import torch


def quantile_loss(pred, target, q, mask):
    diff = (target - pred) * mask
    return 2 * torch.sum(torch.abs(diff * ((target <= pred).float() - q)))


def quantile_crps(samples, targets, masks):
    """samples: (n_samples, batch, steps, features) on the model's device."""
    quantiles = np.arange(0.05, 1.0, 0.05)
    denom = torch.sum(torch.abs(targets * masks))
    crps = torch.tensor(0.0)  # bug: cpu_accumulator
    for q in quantiles:
        q_pred = torch.quantile(samples, float(q), dim=0)
        crps += quantile_loss(q_pred, targets, float(q), masks) / denom
    return crps.item() / len(quantiles)


def evaluate(model, loader, device="cuda", n_samples=50):
    scores = []
    for x, y, m in loader:
        x, y, m = x.to(device), y.to(device), m.to(device)
        samples = model.sample(x, n_samples)
        scores.append(quantile_crps(samples, y, m))
    return sum(scores) / len(scores)
