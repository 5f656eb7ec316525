# source: https://github.com/pytorch/vision/pull/787
# kind: tensor_no_device_in_forward
# bug: the tensor `normalize` transform turned the per-channel mean and std into tensors with `torch.tensor(...)` and no device, so normalizing an image that was already on the GPU subtracted a CPU tensor from a CUDA one and failed; the merged fix builds mean and std with `device=tensor.device`.
# split: test14
from typing import Sequence

import torch
import torch.nn as nn


def normalize(tensor: torch.Tensor, mean: Sequence[float], std: Sequence[float], inplace: bool = False) -> torch.Tensor:
    if not torch.is_tensor(tensor) or tensor.ndimension() != 3:
        raise TypeError("expected a CxHxW image tensor")
    if not inplace:
        tensor = tensor.clone()
    mean_t = torch.tensor(mean, dtype=torch.float32)  # bug: tensor_no_device_in_forward
    std_t = torch.tensor(std, dtype=torch.float32)
    tensor.sub_(mean_t[:, None, None]).div_(std_t[:, None, None])
    return tensor


class Normalize:
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)


class Denormalize(Normalize):
    def __init__(self, mean, std):
        super().__init__([-m / s for m, s in zip(mean, std)], [1.0 / s for s in std])


if __name__ == "__main__":
    device = torch.device("cuda")
    mean, std = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
    detector = nn.Conv2d(3, 8, 3, padding=1).to(device)
    img = torch.rand(3, 224, 224, device=device)
    pred = detector(Normalize(mean, std)(img).unsqueeze(0))
    vis = Denormalize(mean, std)(img)
