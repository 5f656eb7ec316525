# source: https://github.com/DenOfEquity/webUI_ExtraSchedulers/pull/3
# kind: inputs_not_moved
# bug: the refined-exponential sampler moved its eta tensor to the latent's device but iterated over the sigma schedule handed in by the web UI, which lives on the CPU, so per-step sigma slices were multiplied with CUDA tensors and sampling crashed; the fix moves the whole sigma schedule (and the noise) to the latent's device first.
# split: test20
import math
from itertools import pairwise

import torch


def default_noise_sampler(x):
    return lambda sigma, sigma_next: torch.randn_like(x)


def second_order_step(model, x, sigma, sigma_next, c2=0.5):
    lam, lam_next = -sigma.log(), -sigma_next.log()
    h = lam_next - lam
    denoised = model(x, sigma)
    x_mid = torch.exp(-c2 * h) * x + (1 - torch.exp(-c2 * h)) * denoised
    sigma_mid = (-(lam + c2 * h)).exp()
    denoised2 = model(x_mid, sigma_mid)
    return torch.exp(-h) * x + (1 - torch.exp(-h)) * (0.5 * denoised + 0.5 * denoised2)


@torch.no_grad()
def sample_res(model, x, sigmas, ita=torch.zeros((1,)), c2=0.5):
    noise_sampler = default_noise_sampler(x)
    ita = ita.to(x.device)
    sigma_max = sigmas.max()
    for i, (sigma, sigma_next) in enumerate(pairwise(sigmas[:-1].split(1))):  # bug: inputs_not_moved
        eps = noise_sampler(sigma, sigma_next).float()
        sigma_hat = sigma * (1 + ita)
        x_hat = x + (sigma_hat ** 2 - sigma ** 2).sqrt() * eps
        x = second_order_step(model, x_hat, sigma_hat, sigma_next, c2=c2)
        _ = sigmas[i] / sigma_max
    return x


def exponential_schedule(n, sigma_min=0.03, sigma_max=14.6):
    return torch.cat([torch.exp(torch.linspace(math.log(sigma_max), math.log(sigma_min), n)), torch.zeros(1)])


class ToyDenoiser(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Conv2d(4, 4, 3, padding=1)

    def forward(self, x, sigma):
        return self.net(x) / (1 + sigma.view(-1, 1, 1, 1) ** 2)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ToyDenoiser().to(device)
    latents = torch.randn(1, 4, 32, 32, device=device) * 14.6
    sigmas = exponential_schedule(20)
    out = sample_res(model, latents, sigmas, ita=torch.tensor([0.25]))
    print(out.shape)
