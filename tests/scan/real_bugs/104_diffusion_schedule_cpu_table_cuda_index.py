# source: https://github.com/open-mmlab/mmgeneration/pull/476
# also: https://github.com/open-mmlab/mmgeneration/commit/d1039e0ac2a8d66a0669e0679744d488e3c40a71
# kind: other
# bug: the diffusion helper that gathers per-timestep schedule coefficients indexed a CPU tensor made from the numpy schedule with the CUDA timestep tensor t, which torch 1.13 rejects ("indices should be either on cpu or on the same device as the indexed tensor (cpu)"); the fix indexes with t.cpu() before moving the result to the model's device.
# split: test2
import numpy as np
import torch
from torch import nn


def gather_coef(table: np.ndarray, t: torch.Tensor, shape, device=None) -> torch.Tensor:
    coef = torch.from_numpy(table)[t].float()  # bug: other
    if device is not None:
        coef = coef.to(device)
    while coef.dim() < len(shape):
        coef = coef[..., None]
    return coef


class GaussianDiffusion(nn.Module):
    def __init__(self, denoiser: nn.Module, steps: int = 1000):
        super().__init__()
        self.denoiser = denoiser
        self.steps = steps
        betas = np.linspace(1e-4, 0.02, steps)
        alphas_bar = np.cumprod(1.0 - betas)
        self.sqrt_ab = np.sqrt(alphas_bar)
        self.sqrt_1m_ab = np.sqrt(1.0 - alphas_bar)

    def q_sample(self, x0, t, noise):
        device = next(self.parameters()).device
        mean = gather_coef(self.sqrt_ab, t, x0.shape, device)
        std = gather_coef(self.sqrt_1m_ab, t, x0.shape, device)
        return x0 * mean + noise * std

    def forward(self, x0):
        t = torch.randint(0, self.steps, (x0.shape[0],), device=x0.device)
        noise = torch.randn_like(x0)
        return nn.functional.mse_loss(self.denoiser(self.q_sample(x0, t, noise), t), noise)
