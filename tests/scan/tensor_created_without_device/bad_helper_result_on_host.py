# A helper of this file builds a grid or an encoding on the host; its caller joins it with device
# tensors, or adds a device tensor to it. A Lightning module's loss helper makes its weights on
# the host while Lightning runs the step on the GPU.
import lightning as L
import torch
from torch import nn


def unit_grid(h: int, w: int) -> torch.Tensor:
    ys = torch.linspace(-1.0, 1.0, h).view(h, 1).expand(h, w)
    xs = torch.linspace(-1.0, 1.0, w).view(1, w).expand(h, w)
    return torch.stack([xs, ys], -1)


def ramp_channels(b, h, w):
    zeros = torch.zeros(b, 1, h, w)
    ramp = torch.arange(h)[None, None, :, None] + zeros
    return ramp


class Warp(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(3, 2, 1)

    def forward(self, image):
        shift = self.head(image).permute(0, 2, 3, 1)
        centre = torch.ones(2, device=image.device)
        grid = unit_grid(image.shape[2], image.shape[3]) * 0.5 + centre  # expect: code.tensor_created_without_device
        extra = ramp_channels(image.shape[0], image.shape[2], image.shape[3])
        both = torch.cat([image, extra], 1)  # expect: code.tensor_created_without_device
        return grid + shift, both


def weighted_mse(pred, target):
    weight = torch.ones(pred.size(0))  # expect: code.tensor_created_without_device
    return (weight * (pred - target) ** 2).mean()


class Regressor(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return weighted_mse(self.net(x).squeeze(-1), y)


model = Warp().cuda()
