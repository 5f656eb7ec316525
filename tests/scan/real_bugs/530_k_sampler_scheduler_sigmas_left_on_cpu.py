# source: https://github.com/huggingface/diffusers/pull/9189
# kind: inputs_not_moved
# bug: the k-diffusion text-to-image pipeline only moved its sigma schedule to the execution device in the Karras branch; without Karras sigmas it passed self.scheduler.sigmas, which the scheduler keeps on the CPU, straight into the sampler together with CUDA latents, so sampling failed with a device mismatch; the fix moves sigmas to the device after both branches.
# split: test25
import torch
import torch.nn as nn


def get_sigmas_karras(n, sigma_min, sigma_max, rho=7.0):
    ramp = torch.linspace(0, 1, n)
    min_inv, max_inv = sigma_min ** (1 / rho), sigma_max ** (1 / rho)
    sigmas = (max_inv + ramp * (min_inv - max_inv)) ** rho
    return torch.cat([sigmas, sigmas.new_zeros([1])])


class EulerScheduler:
    def __init__(self, steps=1000):
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, steps) ** 2
        alphas_cumprod = torch.cumprod(1 - betas, 0)
        self.train_sigmas = ((1 - alphas_cumprod) / alphas_cumprod) ** 0.5
        self.sigmas = None

    def set_timesteps(self, n, device=None):
        idx = torch.linspace(len(self.train_sigmas) - 1, 0, n).long()
        self.sigmas = torch.cat([self.train_sigmas[idx], torch.zeros(1)])  # kept on CPU on purpose


def sample_euler(model_fn, x, sigmas):
    for i in range(len(sigmas) - 1):
        denoised = model_fn(x, sigmas[i] * x.new_ones([x.shape[0]]))
        d = (x - denoised) / sigmas[i]
        x = x + d * (sigmas[i + 1] - sigmas[i])
    return x


class KDiffusionPipeline:
    def __init__(self, denoiser: nn.Module, scheduler: EulerScheduler):
        self.denoiser = denoiser
        self.scheduler = scheduler

    @torch.no_grad()
    def __call__(self, cond, steps=20, use_karras_sigmas=False, device="cuda"):
        self.scheduler.set_timesteps(steps, device=device)
        if use_karras_sigmas:
            sigmas = get_sigmas_karras(steps, float(self.scheduler.train_sigmas[0]), float(self.scheduler.train_sigmas[-1]))
            sigmas = sigmas.to(device)
        else:
            sigmas = self.scheduler.sigmas  # bug: inputs_not_moved
        sigmas = sigmas.to(cond.dtype)
        latents = torch.randn(cond.shape[0], 4, 32, 32, device=device, dtype=cond.dtype) * sigmas[0]

        def model_fn(x, t):
            return self.denoiser(x) * t.view(-1, 1, 1, 1)

        return sample_euler(model_fn, latents, sigmas)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    pipe = KDiffusionPipeline(nn.Conv2d(4, 4, 3, padding=1).to(dev), EulerScheduler())
    print(pipe(torch.randn(2, 77, 768, device=dev), device=dev).shape)
