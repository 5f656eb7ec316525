# source: https://github.com/BillChan226/HALC/pull/16
# kind: wrong_device_choice
# bug: for visual contrastive decoding the noised copy of the image was sent to the GPU with a bare .cuda(), which always means cuda:0, so when the LVLM was loaded on another GPU (e.g. cuda:1) the forward pass saw tensors on two devices; the fix uses .to(device) / .to(model.device).
# split: test23
import argparse

import torch
import torch.nn as nn


def add_diffusion_noise(image, noise_step, num_steps=1000):
    betas = torch.linspace(-6, 6, num_steps).sigmoid() * (0.5e-2 - 1e-5) + 1e-5
    alphas_cumprod = torch.cumprod(1 - betas, dim=0)
    a = alphas_cumprod[noise_step]
    return a.sqrt() * image + (1 - a).sqrt() * torch.randn_like(image)


class TinyLVLM(nn.Module):
    def __init__(self, vocab=1000, dim=256):
        super().__init__()
        self.vision = nn.Sequential(nn.Conv2d(3, dim, 16, 16), nn.Flatten(2))
        self.embed = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, image, input_ids):
        img_tokens = self.vision(image).transpose(1, 2)
        h = torch.cat([img_tokens, self.embed(input_ids)], dim=1)
        return self.lm_head(h)[:, -1]


@torch.no_grad()
def generate_caption(model, image, prompt_ids, args, device):
    image = image.unsqueeze(0).half().to(device)
    image_cd = None
    if args.vcd_decoding:
        noisy = add_diffusion_noise(image.float().cpu()[0], args.noise_step)
        image_cd = noisy.unsqueeze(0).half().cuda() if noisy is not None else None  # bug: wrong_device_choice
    ids = prompt_ids.to(device)
    for _ in range(args.max_new_tokens):
        logits = model(image, ids)
        if image_cd is not None:
            logits_cd = model(image_cd, ids)
            logits = (1 + args.cd_alpha) * logits - args.cd_alpha * logits_cd
        next_id = logits.argmax(-1, keepdim=True)
        ids = torch.cat([ids, next_id], dim=1)
    return ids


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu-id", type=int, default=1)
    parser.add_argument("--vcd-decoding", action="store_true")
    parser.add_argument("--noise-step", type=int, default=500)
    parser.add_argument("--cd-alpha", type=float, default=1.0)
    parser.add_argument("--max-new-tokens", type=int, default=8)
    args = parser.parse_args()
    device = torch.device(f"cuda:{args.gpu_id}")
    model = TinyLVLM().half().to(device).eval()
    img = torch.rand(3, 224, 224)
    print(generate_caption(model, img, torch.tensor([[1, 2, 3]]), args, device))
