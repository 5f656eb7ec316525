from numbers import Number

import torch


def error_rate(preds, target, threshold=0.5):
    if isinstance(threshold, Number):
        threshold = torch.tensor([threshold], dtype=preds.dtype)  # expect: code.tensor_created_without_device
    hyp = (preds > threshold).float()
    return (hyp != target).float().mean()


def ssim_weights(x, levels):
    weights = torch.ones(levels, dtype=x.dtype)  # expect: code.tensor_created_without_device
    return weights / weights.sum() * x.mean()
