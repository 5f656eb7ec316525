# source: https://github.com/huggingface/diffusers/pull/1124
# also: https://github.com/huggingface/diffusers/commit/7b030a7d68888ab08cbec3d7a9c371f1568c219b
# kind: per_step_host_alloc
# bug: the Euler schedulers' `step()` drew the per-step noise with `torch.randn(shape, dtype=..., generator=generator)` on the host and then copied it with `.to(device)`, once per denoising step (and a CUDA generator could not be used at all); the merged fix draws the noise directly with `device=model_output.device` (keeping the host path only for mps).
# split: test16
import torch
import torch.nn as nn


class EulerAncestralSampler:
    def __init__(self, num_train_steps=1000):
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_steps) ** 2
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.all_sigmas = ((1 - alphas_cumprod) / alphas_cumprod) ** 0.5
        self.sigmas = None

    def set_timesteps(self, n, device):
        idx = torch.linspace(len(self.all_sigmas) - 1, 0, n).long()
        self.sigmas = torch.cat([self.all_sigmas[idx], torch.zeros(1)]).to(device)

    def step(self, model_output, i, sample, generator=None):
        sigma_from, sigma_to = self.sigmas[i], self.sigmas[i + 1]
        sigma_up = (sigma_to ** 2 * (sigma_from ** 2 - sigma_to ** 2) / sigma_from ** 2) ** 0.5
        sigma_down = (sigma_to ** 2 - sigma_up ** 2) ** 0.5
        derivative = (sample - (sample - sigma_from * model_output)) / sigma_from
        prev_sample = sample + derivative * (sigma_down - sigma_from)
        device = model_output.device if torch.is_tensor(model_output) else "cpu"
        noise = torch.randn(model_output.shape, dtype=model_output.dtype, generator=generator).to(device)  # bug: per_step_host_alloc
        return prev_sample + noise * sigma_up


class TinyDenoiser(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 64, 3, padding=1), nn.SiLU(), nn.Conv2d(64, ch, 3, padding=1))

    def forward(self, x, sigma):
        return self.net(x / (sigma ** 2 + 1) ** 0.5)


@torch.no_grad()
def sample(steps=30):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    unet = TinyDenoiser().to(device).eval()
    sched = EulerAncestralSampler()
    sched.set_timesteps(steps, device)
    latents = torch.randn(1, 4, 64, 64, device=device) * sched.sigmas[0]
    for i in range(steps):
        eps = unet(latents, sched.sigmas[i])
        latents = sched.step(eps, i, latents)
    return latents
