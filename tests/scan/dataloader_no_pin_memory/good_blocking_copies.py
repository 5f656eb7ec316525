# Near miss: without non_blocking=True, pinning is a nice-to-have, not a broken promise.
import torch
from torch.utils.data import DataLoader


def run(dataset, model):
    model.cuda()
    with torch.no_grad(), torch.autocast("cuda"):
        for x in DataLoader(dataset, batch_size=64, num_workers=4):
            model(x.cuda())
