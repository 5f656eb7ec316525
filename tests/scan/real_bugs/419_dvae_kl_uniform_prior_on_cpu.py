# source: https://github.com/lucidrains/DALLE-pytorch/issues/41
# also: https://github.com/lucidrains/DALLE-pytorch/commit/d596b1b2ea4f2e96c2654c3f80a6257292f3d9a4
# kind: tensor_no_device_in_forward
# bug: the discrete VAE's forward added a KL term against a uniform prior whose log-probability was built with torch.Tensor([1. / num_tokens]) on the CPU, so training the VAE on the GPU failed with a device mismatch; the fix creates the prior with device=img.device.
# split: test19
import torch
import torch.nn as nn
import torch.nn.functional as F


class GumbelDVAE(nn.Module):
    def __init__(self, num_tokens=512, codebook_dim=256, hidden=64, temperature=0.9, kl_weight=1.0):
        super().__init__()
        self.num_tokens = num_tokens
        self.temperature = temperature
        self.kl_weight = kl_weight
        self.codebook = nn.Embedding(num_tokens, codebook_dim)
        self.encoder = nn.Sequential(
            nn.Conv2d(3, hidden, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(hidden, num_tokens, 1),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(codebook_dim, hidden, 4, 2, 1), nn.ReLU(),
            nn.ConvTranspose2d(hidden, hidden, 4, 2, 1), nn.ReLU(),
            nn.Conv2d(hidden, 3, 1),
        )

    def forward(self, img, return_loss=False):
        logits = self.encoder(img)
        soft_one_hot = F.gumbel_softmax(logits, tau=self.temperature, dim=1)
        sampled = torch.einsum("bnhw,nd->bdhw", soft_one_hot, self.codebook.weight)
        out = self.decoder(sampled)
        if not return_loss:
            return out
        recon = F.mse_loss(img, out)
        flat = logits.permute(0, 2, 3, 1).reshape(img.size(0), -1, self.num_tokens)
        qy = F.softmax(flat, dim=-1)
        log_qy = torch.log(qy + 1e-20)
        log_uniform = torch.log(torch.Tensor([1.0 / self.num_tokens]))  # bug: tensor_no_device_in_forward
        kl = (qy * (log_qy - log_uniform)).sum(dim=(1, 2)).mean()
        return recon + self.kl_weight * kl


if __name__ == "__main__":
    vae = GumbelDVAE().cuda()
    opt = torch.optim.Adam(vae.parameters(), lr=3e-4)
    for _ in range(3):
        imgs = torch.randn(4, 3, 64, 64, device="cuda")
        loss = vae(imgs, return_loss=True)
        opt.zero_grad()
        loss.backward()
        opt.step()
