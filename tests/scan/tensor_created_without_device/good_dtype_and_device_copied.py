from numbers import Number

import torch


def error_rate(preds, target, threshold=0.5):
    if isinstance(threshold, Number):
        threshold = torch.tensor([threshold], dtype=preds.dtype, device=preds.device)
    hyp = (preds > threshold).float()
    return (hyp != target).float().mean()


def ssim_weights(x, levels):
    weights = torch.ones(levels, dtype=x.dtype).to(x.device)
    scale = torch.tensor(2.0, dtype=x.dtype)
    scale = scale.to(x.device)
    return weights / weights.sum() * x.mean() * scale
