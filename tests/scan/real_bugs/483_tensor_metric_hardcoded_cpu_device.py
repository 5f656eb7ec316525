# source: https://github.com/Lightning-AI/pytorch-lightning/issues/2274
# kind: hardcoded_cpu
# bug: the metric base class fixed its device to torch.device('cpu') in __init__ and converted every input to that device in forward, so when training on a GPU the metric silently copied the CUDA predictions back to the CPU (and produced CPU results); the fix tracks the device the module is moved to instead of hard-coding the CPU.
# split: test23
from abc import ABC, abstractmethod

import torch
import torch.nn.functional as F
from torch import nn


def _apply_to_tensors(data, fn):
    if isinstance(data, torch.Tensor):
        return fn(data)
    if isinstance(data, (list, tuple)):
        return type(data)(_apply_to_tensors(d, fn) for d in data)
    if isinstance(data, dict):
        return {k: _apply_to_tensors(v, fn) for k, v in data.items()}
    return data


class Metric(nn.Module, ABC):
    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self._dtype = torch.get_default_dtype()
        self._device = torch.device("cpu")  # bug: hardcoded_cpu

    @abstractmethod
    def forward(self, *args, **kwargs):
        raise NotImplementedError


class TensorMetric(Metric):
    def __call__(self, *args, **kwargs):
        def to_metric_device(t):
            return t.to(device=self._device)

        args = _apply_to_tensors(args, to_metric_device)
        kwargs = _apply_to_tensors(kwargs, to_metric_device)
        return super().__call__(*args, **kwargs)


class FocalTversky(TensorMetric):
    def __init__(self, alpha=0.7, beta=0.3, gamma=0.75, smooth=1e-8):
        super().__init__("focal_tversky")
        self.alpha, self.beta, self.gamma, self.smooth = alpha, beta, gamma, smooth

    def forward(self, probs, target):
        c = probs.shape[1]
        p = probs.permute(0, 2, 3, 1).reshape(-1, c)
        g = F.one_hot(target.flatten().long(), c).float()
        tp = (p * g).sum(0)
        fn = ((1 - p) * g).sum(0)
        fp = (p * (1 - g)).sum(0)
        ti = (tp + self.smooth) / (tp + self.alpha * fn + self.beta * fp + self.smooth)
        return torch.pow(1 - ti, self.gamma).mean()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    metric = FocalTversky().to(device)
    logits = torch.randn(2, 3, 8, 8, device=device)
    labels = torch.randint(0, 3, (2, 8, 8), device=device)
    print(metric(logits.softmax(1), labels).device)
