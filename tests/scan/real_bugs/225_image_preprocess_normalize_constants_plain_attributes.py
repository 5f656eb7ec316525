# source: https://github.com/kornia/kornia/issues/4323
# also: https://github.com/kornia/kornia/pull/4330
# kind: attribute_not_buffer
# bug: the Normalize / Denormalize / Rescale preprocessing modules stored their constants (mean, std, factor) as plain tensor attributes, so `pipeline.to("cuda")` left them on the CPU; eager mode hid it because the functional helper copied them to the input's device on every call, but exporting the pipeline from the accelerator (torch.onnx.export with dynamo) failed with a device mismatch; the fix (PR #4330) registers them with register_buffer(..., persistent=False).
# split: test9
from typing import List, Tuple, Union

import torch
import torch.nn as nn


def normalize(data: torch.Tensor, mean: torch.Tensor, std: torch.Tensor) -> torch.Tensor:
    shape = data.shape
    if not torch.onnx.is_in_onnx_export():
        mean = torch.as_tensor(mean, device=data.device, dtype=data.dtype)
        std = torch.as_tensor(std, device=data.device, dtype=data.dtype)
    mean = mean[..., None]
    std = std[..., None]
    out = (data.view(shape[0], shape[1], -1) - mean) / std
    return out.view(shape)


class Normalize(nn.Module):
    def __init__(
        self,
        mean: Union[torch.Tensor, Tuple[float, ...], List[float], float],
        std: Union[torch.Tensor, Tuple[float, ...], List[float], float],
    ) -> None:
        super().__init__()
        if isinstance(mean, (int, float)):
            mean = torch.tensor([mean])
        if isinstance(std, (int, float)):
            std = torch.tensor([std])
        if isinstance(mean, (tuple, list)):
            mean = torch.tensor(mean)[None]
        if isinstance(std, (tuple, list)):
            std = torch.tensor(std)[None]
        self.mean, self.std = mean, std  # bug: attribute_not_buffer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return normalize(x, self.mean, self.std)


class ScaleRange(nn.Module):
    def __init__(self, low: float, high: float) -> None:
        super().__init__()
        self.low = low
        self.high = high

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x - self.low) / (self.high - self.low)


class ChannelFlip(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.flip(1)


def build_preprocessing(params: dict) -> nn.Sequential:
    steps = []
    if params.get("input_space") == "BGR":
        steps.append(ChannelFlip())
    low, high = params.get("input_range", (0.0, 1.0))
    steps.append(ScaleRange(low, high))
    steps.append(Normalize(params["mean"], params["std"]))
    return nn.Sequential(*steps)


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    params = {
        "input_space": "BGR",
        "input_range": [0, 255],
        "mean": [0.485, 0.456, 0.406],
        "std": [0.229, 0.224, 0.225],
    }
    pipe = build_preprocessing(params).to(device)
    x = torch.rand(1, 3, 64, 64, device=device) * 255
    pipe(x)
    torch.onnx.export(pipe, (x,), "preprocess.onnx", dynamo=True, opset_version=18)
