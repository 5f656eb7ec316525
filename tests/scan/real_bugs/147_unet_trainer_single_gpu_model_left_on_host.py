# source: https://github.com/wolny/pytorch-3dunet/pull/90
# also: https://github.com/wolny/pytorch-3dunet/commit/1d95922c963cccc43e6234f84bf47c17ece6b3c0
# kind: model_not_moved
# bug: the trainer factory only called model.cuda() inside the multi-GPU DataParallel branch, so with exactly one GPU the UNet stayed on the CPU while every training batch was moved to CUDA; the fix moves the model whenever any GPU is available.
# split: test5
import torch
import torch.nn as nn


class TinyUNet(nn.Module):
    def __init__(self, in_ch=1, out_ch=2):
        super().__init__()
        self.enc = nn.Conv3d(in_ch, 16, 3, padding=1)
        self.dec = nn.Conv3d(16, out_ch, 1)

    def forward(self, x):
        return self.dec(torch.relu(self.enc(x)))


class VolumeTrainer:
    def __init__(self, model, optimizer, loss_fn, loader):
        self.model = model
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.loader = loader

    def _split_batch(self, batch):
        vol, target = batch
        if torch.cuda.is_available():
            vol = vol.cuda(non_blocking=True)
            target = target.cuda(non_blocking=True)
        return vol, target

    def fit(self, epochs=1):
        self.model.train()
        for _ in range(epochs):
            for batch in self.loader:
                vol, target = self._split_batch(batch)
                loss = self.loss_fn(self.model(vol), target)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


def build_trainer(config, loader):
    model = TinyUNet(config["in_channels"], config["out_channels"])
    if torch.cuda.device_count() > 1 and config["device"] != "cpu":
        model = nn.DataParallel(model)
        model.cuda()  # bug: model_not_moved
    optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])
    return VolumeTrainer(model, optimizer, nn.CrossEntropyLoss(), loader)
