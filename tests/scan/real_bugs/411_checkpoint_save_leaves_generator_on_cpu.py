# source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/253
# also: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/254
# kind: model_not_moved
# bug: the periodic checkpoint routine moved each DataParallel-wrapped network to the GPU first and then called `.cpu()` on it in place to grab a CPU state_dict, so after the first save the generators/discriminators stayed on the CPU and the next training step failed with CUDA inputs; the fix swaps the order so the network is moved back to the GPU after saving.
# split: test19
import os

import torch
import torch.nn as nn


class Pix2PixModel:
    def __init__(self, gpu_ids=(0,), save_dir="/tmp/ckpt"):
        self.gpu_ids = list(gpu_ids)
        self.save_dir = save_dir
        self.model_names = ["G", "D"]
        self.device = torch.device(f"cuda:{self.gpu_ids[0]}")
        g = nn.Sequential(nn.Conv2d(3, 64, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(64, 3, 4, 2, 1), nn.Tanh())
        d = nn.Sequential(nn.Conv2d(6, 64, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(64, 1, 4, 1, 1))
        self.netG = nn.DataParallel(g.to(self.device), self.gpu_ids)
        self.netD = nn.DataParallel(d.to(self.device), self.gpu_ids)
        self.opt_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)

    def optimize(self, real_a, real_b):
        real_a, real_b = real_a.to(self.device), real_b.to(self.device)
        fake_b = self.netG(real_a)
        pred = self.netD(torch.cat([real_a, fake_b], 1))
        loss = ((pred - 1) ** 2).mean() + (fake_b - real_b).abs().mean()
        self.opt_G.zero_grad()
        loss.backward()
        self.opt_G.step()

    def save_networks(self, epoch):
        os.makedirs(self.save_dir, exist_ok=True)
        for name in self.model_names:
            net = getattr(self, "net" + name)
            path = os.path.join(self.save_dir, f"{epoch}_net_{name}.pth")
            net.cuda(self.gpu_ids[0])
            torch.save(net.module.cpu().state_dict(), path)  # bug: model_not_moved


if __name__ == "__main__":
    model = Pix2PixModel()
    for epoch in range(3):
        for _ in range(4):
            model.optimize(torch.randn(2, 3, 64, 64), torch.randn(2, 3, 64, 64))
        model.save_networks(epoch)
