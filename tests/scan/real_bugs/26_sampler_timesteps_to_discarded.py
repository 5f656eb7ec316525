# source: https://github.com/huggingface/accelerate/issues/2251
# kind: to_result_discarded
# bug: In a diffusion training step the user called t.to(batch.device) and w.to(batch.device) without assignment, so the sampled timesteps and weights stayed on the CPU; a maintainer pointed out .to is not in-place and the user fixed it by returning device tensors from the sampler.
# split: test
import numpy as np
import torch


class TimestepSampler:
    def __init__(self, n_steps):
        self.n = n_steps

    def draw(self, batch_size):
        p = np.full(self.n, 1.0 / self.n)
        idx = np.random.choice(self.n, size=(batch_size,), p=p)
        w = 1.0 / (self.n * p[idx])
        return torch.from_numpy(idx).long(), torch.from_numpy(w).float()


def diffusion_step(denoiser, schedule, sampler, batch, opt):
    t, w = sampler.draw(batch.shape[0])
    t.to(batch.device)  # bug: to_result_discarded
    w.to(batch.device)  # bug: to_result_discarded
    noise = torch.randn_like(batch)
    alpha = schedule[t].view(-1, 1, 1, 1)
    noisy = alpha.sqrt() * batch + (1 - alpha).sqrt() * noise
    loss = (w * ((denoiser(noisy, t) - noise) ** 2).mean(dim=(1, 2, 3))).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
