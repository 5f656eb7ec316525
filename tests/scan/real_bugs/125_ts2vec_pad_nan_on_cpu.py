# source: https://github.com/WenjieDu/PyPOTS/pull/794
# also: https://github.com/WenjieDu/PyPOTS/commit/59211b8008a38d9414f0dc5ae2d3fcae19fa212c
# kind: tensor_no_device_in_forward
# bug: the TS2Vec sliding-window encoder padded each window with `torch.full(padshape, np.nan)` created on the CPU and concatenated it with the CUDA window; the fix builds the padding with `device=arr.device, dtype=arr.dtype`.
# split: test3
import numpy as np
import torch
import torch.nn as nn


def pad_nan(arr, left=0, right=0, dim=0):
    if left > 0:
        shape = list(arr.shape)
        shape[dim] = left
        arr = torch.cat((torch.full(shape, np.nan), arr), dim=dim)  # bug: tensor_no_device_in_forward
    if right > 0:
        shape = list(arr.shape)
        shape[dim] = right
        arr = torch.cat((arr, torch.full(shape, np.nan)), dim=dim)  # bug: tensor_no_device_in_forward
    return arr


class SlidingEncoder(nn.Module):
    def __init__(self, n_features, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, hidden))

    def forward(self, x, window=10, padding=5):
        n_steps = x.size(1)
        reprs = []
        for i in range(0, n_steps, window):
            lo, hi = i - padding, i + window + padding
            chunk = pad_nan(x[:, max(lo, 0):min(hi, n_steps)],
                            left=-lo if lo < 0 else 0,
                            right=hi - n_steps if hi > n_steps else 0,
                            dim=1)
            out = self.net(torch.nan_to_num(chunk))
            reprs.append(out[:, padding:padding + window])
        return torch.cat(reprs, dim=1)
