# source: https://github.com/harubaru/waifu-diffusion/pull/47
# kind: optimizer_before_move
# bug: the diffusion fine-tuning script created the AdamW (or 8-bit Adam) optimizer over the UNet parameters while the UNet was still on the CPU and only moved the VAE/UNet/text encoder to the GPU much later, after the dataset setup, which produced CPU/GPU mismatches with optimizers that keep device state (e.g. under hivemind); the fix moves the models to the device before building the optimizer.
# split: test21
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    def __init__(self, ch=4, cond_dim=32):
        super().__init__()
        self.inp = nn.Conv2d(ch, 32, 3, padding=1)
        self.cond = nn.Linear(cond_dim, 32)
        self.out = nn.Conv2d(32, ch, 3, padding=1)

    def forward(self, x, t, cond):
        h = F.silu(self.inp(x)) + self.cond(cond)[:, :, None, None]
        return self.out(h)


class TinyVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 4, 8, stride=8)

    def encode(self, x):
        return self.enc(x)


class TinyTextEncoder(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)

    def forward(self, ids):
        return self.emb(ids).mean(dim=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=5e-6)
    parser.add_argument("--fp16", action="store_true")
    parser.add_argument("--epochs", type=int, default=1)
    args = parser.parse_args([])

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    text_encoder = TinyTextEncoder()
    vae = TinyVAE()
    unet = TinyUNet()

    vae.requires_grad_(False)
    text_encoder.requires_grad_(False)

    optimizer_cls = torch.optim.AdamW
    optimizer = optimizer_cls(  # bug: optimizer_before_move
        unet.parameters(),
        lr=args.lr,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=1e-2,
    )

    images = torch.randn(8, 3, 64, 64)
    captions = torch.randint(0, 1000, (8, 12))
    train_dataloader = list(zip(images.split(2), captions.split(2)))

    weight_dtype = torch.float16 if args.fp16 else torch.float32

    vae = vae.to(device, dtype=weight_dtype)
    unet = unet.to(device, dtype=torch.float32)
    text_encoder = text_encoder.to(device, dtype=weight_dtype)

    for _ in range(args.epochs):
        for pixels, ids in train_dataloader:
            pixels, ids = pixels.to(device, dtype=weight_dtype), ids.to(device)
            with torch.no_grad():
                latents = vae.encode(pixels).float()
                cond = text_encoder(ids).float()
            noise = torch.randn_like(latents)
            t = torch.randint(0, 1000, (latents.shape[0],), device=device)
            pred = unet(latents + noise, t, cond)
            loss = F.mse_loss(pred, noise)
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


if __name__ == "__main__":
    main()
