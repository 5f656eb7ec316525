# source: https://github.com/huggingface/diffusers/pull/6704
# kind: per_step_host_alloc
# bug: the DDPM scheduler kept its alphas_cumprod table on the CPU and, inside add_noise (called once per training step), copied it to the samples' device into a local variable, so every step paid a host-to-device transfer; the fix stores the moved table back on the scheduler so later calls are no-ops.
# split: test19
import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearNoiseScheduler:
    def __init__(self, num_train_timesteps=1000, beta_start=1e-4, beta_end=0.02):
        self.num_train_timesteps = num_train_timesteps
        betas = torch.linspace(beta_start, beta_end, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original, noise, timesteps):
        alphas_cumprod = self.alphas_cumprod.to(device=original.device, dtype=original.dtype)  # bug: per_step_host_alloc
        timesteps = timesteps.to(original.device)
        sqrt_a = alphas_cumprod[timesteps].sqrt().view(-1, 1, 1, 1)
        sqrt_1ma = (1 - alphas_cumprod[timesteps]).sqrt().view(-1, 1, 1, 1)
        return sqrt_a * original + sqrt_1ma * noise


class Denoiser(nn.Module):
    def __init__(self, ch=3):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, ch, 3, padding=1))

    def forward(self, x, t):
        return self.net(x)


def train(loader, steps=100, device="cuda"):
    model = Denoiser().to(device)
    sched = LinearNoiseScheduler()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _, images in zip(range(steps), loader):
        images = images.to(device)
        noise = torch.randn_like(images)
        t = torch.randint(0, sched.num_train_timesteps, (images.size(0),), device=device)
        noisy = sched.add_noise(images, noise, t)
        loss = F.mse_loss(model(noisy, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    train([torch.randn(8, 3, 32, 32) for _ in range(10)], steps=10)
