# source: https://github.com/WenjieDu/PyPOTS/pull/22
# also: https://github.com/WenjieDu/PyPOTS/commit/40477fe2b010d7d7b284235ead9761fce103cb7e
# kind: tensor_no_device_in_forward
# bug: the forward of the Gaussian-mixture VAE clusterer computed the constant log(2*pi) term of its latent loss from `torch.FloatTensor([2 * torch.pi])`, a one-element CPU tensor, and added it to CUDA tensors, so training on the GPU failed; the fix builds it with `torch.tensor(..., device=X.device)`.
# split: test18
import torch
import torch.nn as nn


class GMMLayer(nn.Module):
    def __init__(self, k, d):
        super().__init__()
        self.mu = nn.Parameter(torch.randn(k, d))
        self.log_var = nn.Parameter(torch.zeros(k, d))
        self.logit_phi = nn.Parameter(torch.zeros(k))

    def forward(self):
        return self.mu, torch.exp(self.log_var), torch.softmax(self.logit_phi, 0)


class MixtureVAE(nn.Module):
    def __init__(self, d_in, d_z=8, k=4, eps=1e-9):
        super().__init__()
        self.enc = nn.Linear(d_in, 2 * d_z)
        self.dec = nn.Linear(d_z, d_in)
        self.gmm = GMMLayer(k, d_z)
        self.k, self.d_z, self.eps = k, d_z, eps

    def forward(self, X, pretrain=False):
        mu_t, log_std_t = self.enc(X).chunk(2, dim=-1)
        z = mu_t + torch.randn_like(mu_t) * torch.exp(log_std_t)
        rec = ((self.dec(z) - X) ** 2).mean()
        if pretrain:
            return rec

        mu_c, var_c, phi_c = self.gmm()
        log_var_c = torch.log(var_c + self.eps)
        log_2pi = torch.log(torch.FloatTensor([2 * torch.pi]))  # bug: tensor_no_device_in_forward
        b = z.shape[0]
        ii, jj = torch.meshgrid(torch.arange(self.k, device=X.device),
                                torch.arange(b, device=X.device), indexing="ij")
        ii, jj = ii.flatten(), jj.flatten()
        log_pdf = -0.5 * (log_var_c[ii] + log_2pi + (z[jj] - mu_c[ii]) ** 2 / var_c[ii])
        log_pdf = log_pdf.reshape(b, self.k, self.d_z).sum(-1)
        log_p = torch.log(phi_c + self.eps) + log_pdf
        gamma = torch.softmax(log_p, dim=1)
        latent = -(gamma * log_p).sum(1).mean()
        return rec + latent


if __name__ == "__main__":
    model = MixtureVAE(12).to("cuda")
    print(model(torch.randn(32, 12, device="cuda")).item())
