# source: https://github.com/timbmg/VAE-CVAE-MNIST/pull/4
# also: https://github.com/timbmg/VAE-CVAE-MNIST/commit/4f039d4d31f7b7d126386d8a6f9795d2bf9d0bf4
# kind: tensor_no_device_in_forward
# bug: the (conditional) VAE drew its reparameterisation noise in `forward` with `torch.randn([batch_size, latent_size])`, and `inference` drew its latent samples the same way, so with the model and batches on CUDA the noise stayed on the CPU and training crashed; the PR samples with `torch.randn_like(std)` in a `reparameterize` helper and passes device-placed latents to `inference`.
# split: test12
import torch
import torch.nn as nn


def idx2onehot(idx, n):
    onehot = torch.zeros(idx.size(0), n, device=idx.device)
    return onehot.scatter_(1, idx.view(-1, 1), 1)


class Encoder(nn.Module):
    def __init__(self, latent_size, conditional, n_classes=10):
        super().__init__()
        self.conditional = conditional
        self.n_classes = n_classes
        self.mlp = nn.Sequential(nn.Linear(784 + (n_classes if conditional else 0), 256), nn.ReLU())
        self.means = nn.Linear(256, latent_size)
        self.log_var = nn.Linear(256, latent_size)

    def forward(self, x, c=None):
        if self.conditional:
            x = torch.cat((x, idx2onehot(c, self.n_classes)), dim=-1)
        h = self.mlp(x)
        return self.means(h), self.log_var(h)


class Decoder(nn.Module):
    def __init__(self, latent_size, conditional, n_classes=10):
        super().__init__()
        self.conditional = conditional
        self.n_classes = n_classes
        self.mlp = nn.Sequential(nn.Linear(latent_size + (n_classes if conditional else 0), 256), nn.ReLU(),
                                 nn.Linear(256, 784), nn.Sigmoid())

    def forward(self, z, c=None):
        if self.conditional:
            z = torch.cat((z, idx2onehot(c, self.n_classes)), dim=-1)
        return self.mlp(z)


class CVAE(nn.Module):
    def __init__(self, latent_size=2, conditional=True):
        super().__init__()
        self.latent_size = latent_size
        self.encoder = Encoder(latent_size, conditional)
        self.decoder = Decoder(latent_size, conditional)

    def forward(self, x, c=None):
        x = x.view(-1, 28 * 28)
        batch_size = x.size(0)
        means, log_var = self.encoder(x, c)
        std = torch.exp(0.5 * log_var)
        eps = torch.randn([batch_size, self.latent_size])  # bug: tensor_no_device_in_forward
        z = eps * std + means
        return self.decoder(z, c), means, log_var, z


def train(loader, epochs=10, device="cuda"):
    vae = CVAE().to(device)
    opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            recon, mean, log_var, _ = vae(x, y)
            bce = nn.functional.binary_cross_entropy(recon, x.view(-1, 784), reduction="sum")
            kld = -0.5 * torch.sum(1 + log_var - mean.pow(2) - log_var.exp())
            loss = (bce + kld) / x.size(0)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return vae
