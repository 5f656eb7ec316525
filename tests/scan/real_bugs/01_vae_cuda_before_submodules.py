# source: https://github.com/pyro-ppl/pyro/pull/538
# also: https://github.com/pyro-ppl/pyro/commit/7609e7c4d6962536b2326dbee0fdf1b7a686e983
# kind: model_not_moved
# bug: The VAE example called self.cuda() in __init__ before the encoder/decoder submodules existed, so their weights stayed on the CPU; the fix creates the submodules first and calls .cuda() afterwards.
# split: dev
import torch
import torch.nn as nn


class Coder(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.lin = nn.Linear(n_in, n_out)

    def forward(self, x):
        return torch.relu(self.lin(x))


class TinyAutoencoder(nn.Module):
    def __init__(self, n_pix=784, n_code=16, on_gpu=False):
        super().__init__()
        if on_gpu:
            self.cuda()  # bug: model_not_moved
        self.on_gpu = on_gpu
        self.enc = Coder(n_pix, n_code)
        self.dec = Coder(n_code, n_pix)

    def forward(self, x):
        return self.dec(self.enc(x))


def step(net, images, opt):
    if net.on_gpu:
        images = images.cuda()
    loss = ((net(images) - images) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
