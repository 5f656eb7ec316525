# source: https://github.com/WenjieDu/PyPOTS/issues/200
# kind: tensor_attribute_not_buffer
# bug: the GP-VAE core precomputed its Gaussian-process prior in __init__ as a MultivariateNormal over CPU tensors and kept it as a plain attribute, so after the module was moved to CUDA the KL term compared a CUDA posterior with a CPU prior and training failed; the fix builds the prior lazily in forward on the input's device.
# split: test20
import torch
import torch.nn as nn


def cauchy_kernel(T, sigma, length_scale):
    xs = torch.arange(T, dtype=torch.float32)
    dist = (xs[:, None] - xs[None, :]) ** 2
    k = sigma / (1 + dist / length_scale ** 2)
    return k + 1e-3 * torch.eye(T)


class GPVAECore(nn.Module):
    def __init__(self, input_dim, time_length, latent_dim, hidden=64, sigma=1.0, length_scale=7.0, beta=1.0):
        super().__init__()
        self.time_length, self.latent_dim = time_length, latent_dim
        self.sigma, self.length_scale, self.beta = sigma, length_scale, beta
        self.encoder = nn.Sequential(nn.Linear(input_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, hidden), nn.ReLU(), nn.Linear(hidden, input_dim))
        self.prior = self._init_prior()  # bug: tensor_attribute_not_buffer

    def _init_prior(self):
        kernel = cauchy_kernel(self.time_length, self.sigma, self.length_scale)
        tiled = kernel.unsqueeze(0).repeat(self.latent_dim, 1, 1)
        return torch.distributions.MultivariateNormal(
            loc=torch.zeros(self.latent_dim, self.time_length), covariance_matrix=tiled)

    def encode(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)
        scale = torch.diag_embed(torch.exp(0.5 * logvar.transpose(1, 2)))
        return torch.distributions.MultivariateNormal(loc=mu.transpose(1, 2), scale_tril=scale)

    def forward(self, X, missing_mask):
        qz = self.encode(X)
        z = qz.rsample()
        x_hat = self.decoder(z.transpose(1, 2))
        nll = ((x_hat - X) ** 2 * missing_mask).sum(dim=(1, 2))
        kl = torch.distributions.kl.kl_divergence(qz, self.prior).sum(1)
        return {"loss": (nll + self.beta * kl).mean(), "imputed": x_hat * (1 - missing_mask) + X * missing_mask}


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = GPVAECore(input_dim=6, time_length=24, latent_dim=4).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(3):
        X = torch.randn(8, 24, 6, device=device)
        mask = (torch.rand_like(X) > 0.2).float()
        out = model(X * mask, mask)
        opt.zero_grad()
        out["loss"].backward()
        opt.step()
    print(out["loss"].item())
