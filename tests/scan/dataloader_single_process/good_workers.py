import os

import torch
from torch import nn
from torch.utils.data import DataLoader


def make_loaders(train_ds, val_ds, args):
    train = DataLoader(train_ds, batch_size=64, shuffle=True, num_workers=os.cpu_count() // 2, pin_memory=True,
                       persistent_workers=True)
    val = DataLoader(val_ds, batch_size=256, num_workers=args.workers)
    return train, val


def train(model, loader, opt):
    model.cuda()
    for x, y in loader:
        with torch.autocast("cuda"):
            loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
