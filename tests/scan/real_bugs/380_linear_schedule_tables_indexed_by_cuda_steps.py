# source: https://github.com/explainingai-code/DDPM-Pytorch/issues/5
# also: https://github.com/explainingai-code/DDPM-Pytorch/commit/751cf952702528c822c04d1c349ac456d4bb2549
# kind: other
# bug: the plain-Python noise scheduler built its beta/alpha tables with torch.linspace/cumprod on the CPU and indexed them with the timestep tensor that the training loop drew on the GPU, raising "indices should be either on cpu or on the same device"; the fix moves each table to the input's device before indexing.
# split: test18
import torch
import torch.nn as nn


class LinearSchedule:
    def __init__(self, steps=1000, beta_lo=1e-4, beta_hi=0.02):
        self.betas = torch.linspace(beta_lo, beta_hi, steps)
        self.alphas = 1.0 - self.betas
        self.alpha_bar = torch.cumprod(self.alphas, dim=0)
        self.sqrt_ab = torch.sqrt(self.alpha_bar)
        self.sqrt_one_minus_ab = torch.sqrt(1.0 - self.alpha_bar)

    def noisy(self, x0, eps, t):
        b = x0.shape[0]
        a = self.sqrt_ab[t].reshape(b)  # bug: other
        s = self.sqrt_one_minus_ab[t].reshape(b)
        for _ in range(x0.dim() - 1):
            a = a.unsqueeze(-1)
            s = s.unsqueeze(-1)
        return a.to(x0.device) * x0 + s.to(x0.device) * eps


class Denoiser(nn.Module):
    def __init__(self, ch=3, width=32):
        super().__init__()
        self.inp = nn.Conv2d(ch, width, 3, padding=1)
        self.t_emb = nn.Embedding(1000, width)
        self.out = nn.Conv2d(width, ch, 3, padding=1)

    def forward(self, x, t):
        h = self.inp(x) + self.t_emb(t)[:, :, None, None]
        return self.out(torch.relu(h))


def train(loader, epochs=1):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Denoiser().to(device)
    sched = LinearSchedule()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(epochs):
        for images in loader:
            images = images.float().to(device)
            eps = torch.randn_like(images)
            t = torch.randint(0, 1000, (images.shape[0],)).to(device)
            xt = sched.noisy(images, eps, t)
            loss = nn.functional.mse_loss(model(xt, t), eps)
            opt.zero_grad()
            loss.backward()
            opt.step()


if __name__ == "__main__":
    train([torch.randn(4, 3, 16, 16) for _ in range(2)])
