# source: https://github.com/bohaohuang/mrs/pull/47
# also: https://github.com/bohaohuang/mrs/commit/9da54247de5749713d31ab88bd2b20c526b5f2b1
# kind: loaded_weights_not_moved
# bug: when resuming training, the snapshot was loaded with a CPU `map_location` and the optimizer's state dict (momentum/Adam buffers) was restored while the network was still on the CPU; the network was then moved to the GPU but the restored optimizer state stayed on the CPU, breaking the first `step()`; the merged fix moves every tensor in the optimizer state to the device after loading.
# split: test16
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, n_class=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.ReLU())
        self.decoder = nn.Sequential(nn.ConvTranspose2d(64, 32, 2, stride=2), nn.ReLU(), nn.Conv2d(32, n_class, 1))

    def forward(self, x):
        return self.decoder(self.encoder(x))


def load_epoch(save_dir, resume_epoch, model, optm):
    path = os.path.join(save_dir, "epoch-%d.pth.tar" % (resume_epoch - 1))
    checkpoint = torch.load(path, map_location=lambda storage, loc: storage)
    model.load_state_dict(checkpoint["state_dict"])
    optm.load_state_dict(checkpoint["opt_dict"])  # bug: loaded_weights_not_moved


def train_model(save_dir, loader, resume_epoch=0, epochs=100):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SegNet()
    optm = torch.optim.Adam(model.parameters(), lr=1e-4)
    if resume_epoch > 0:
        load_epoch(save_dir, resume_epoch, model, optm)
    model.to(device)
    for epoch in range(resume_epoch, epochs):
        model.train()
        for image, label in loader:
            image, label = image.to(device), label.to(device)
            loss = F.cross_entropy(model(image), label)
            optm.zero_grad()
            loss.backward()
            optm.step()
        torch.save({"state_dict": model.state_dict(), "opt_dict": optm.state_dict()},
                   os.path.join(save_dir, "epoch-%d.pth.tar" % epoch))
    return model
