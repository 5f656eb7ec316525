# source: https://github.com/hkproj/pytorch-stable-diffusion/pull/9
# also: https://github.com/hkproj/pytorch-stable-diffusion/commit/e2f7e666c5322d27cdc871c2f92b3c0f83b51b69
# kind: inputs_not_moved
# bug: in the from-scratch Stable Diffusion pipeline, the image-to-image branch moved the VAE encoder and the noise to `device`, but converted the PIL input image with torch.tensor(np.array(img), dtype=torch.float32) and no device, so the encoder's first convolution got a CPU tensor on a GPU run; the fix creates the image tensor with device=device.
# split: test7
import numpy as np
import torch

WIDTH, HEIGHT = 512, 512
LATENT_SHAPE = (1, 4, HEIGHT // 8, WIDTH // 8)


def rescale(x, old_range, new_range):
    old_min, old_max = old_range
    new_min, new_max = new_range
    x = (x - old_min) * (new_max - new_min) / (old_max - old_min)
    return x + new_min


def encode_prompt(clip, tokenizer, prompt, device):
    ids = tokenizer.batch_encode_plus([prompt], padding="max_length", max_length=77).input_ids
    return clip(torch.tensor(ids, dtype=torch.long, device=device))


def generate(prompt, models, tokenizer, input_image=None, strength=0.8, seed=None, device="cuda"):
    with torch.no_grad():
        generator = torch.Generator(device=device)
        generator.manual_seed(seed) if seed is not None else generator.seed()

        clip = models["clip"].to(device)
        context = encode_prompt(clip, tokenizer, prompt, device)

        if input_image is not None:
            encoder = models["encoder"].to(device)
            img = np.array(input_image.resize((WIDTH, HEIGHT)))
            img = torch.tensor(img, dtype=torch.float32)  # bug: inputs_not_moved
            img = rescale(img, (0, 255), (-1, 1)).unsqueeze(0).permute(0, 3, 1, 2)
            noise = torch.randn(LATENT_SHAPE, generator=generator, device=device)
            latents = encoder(img, noise)
            latents = latents * (1 - strength) + noise * strength
        else:
            latents = torch.randn(LATENT_SHAPE, generator=generator, device=device)

        diffusion = models["diffusion"].to(device)
        for t in range(999, 0, -50):
            t_emb = torch.full((1, 320), float(t), device=device)
            eps = diffusion(latents, context, t_emb)
            latents = latents - eps * 0.05

        decoder = models["decoder"].to(device)
        return decoder(latents).clamp(-1, 1)
