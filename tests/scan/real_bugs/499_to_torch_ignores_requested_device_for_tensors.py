# source: https://github.com/ZettaAI/zetta_utils/pull/427
# kind: other
# bug: the to_torch conversion helper honoured its device argument only for numpy input and returned torch.Tensor input untouched, so a CPU tensor requested on the GPU stayed on the CPU (and the "cpu" default silently disagreed with GPU tensors); the fix moves tensor input to the requested device and makes the default None to keep the current device.
# split: test23
from typing import Optional, Union

import numpy as np
import torch
import torch.nn.functional as F

Device = Union[str, torch.device]
Tensor = Union[np.ndarray, torch.Tensor]


def to_torch(data: Tensor, device: Optional[Device] = "cpu") -> torch.Tensor:
    if isinstance(data, torch.Tensor):
        return data  # bug: other
    if isinstance(data, np.ndarray):
        if data.dtype == np.uint64:
            data = data.astype(np.int64)
        return torch.from_numpy(data).to(device)
    raise TypeError(f"unsupported type {type(data)}")


def to_np(data: Tensor) -> np.ndarray:
    if isinstance(data, torch.Tensor):
        return data.detach().cpu().numpy()
    return data


def interpolate(data: Tensor, scale_factor, mode="bilinear", device: Optional[Device] = None):
    t = to_torch(data, device=device)
    squeeze = t.dim() == 3
    if squeeze:
        t = t.unsqueeze(0)
    out = F.interpolate(t.float(), scale_factor=scale_factor, mode=mode, align_corners=False)
    return out.squeeze(0) if squeeze else out


class EncoderOp:
    def __init__(self, model: torch.nn.Module, device: Device = "cuda"):
        self.device = torch.device(device)
        self.model = model.to(self.device).eval()

    @torch.no_grad()
    def __call__(self, src: Tensor) -> np.ndarray:
        x = to_torch(src, device=self.device)
        x = x.float().unsqueeze(0) / 255.0
        return to_np(self.model(x))


if __name__ == "__main__":
    enc = EncoderOp(torch.nn.Conv2d(1, 4, 3, padding=1))
    from_disk = torch.randint(0, 255, (1, 256, 256), dtype=torch.uint8)
    print(enc(from_disk).shape)
