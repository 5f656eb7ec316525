import cv2
import numpy as np
import torch
from torch.utils.data import Dataset


class Frames(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = cv2.imread(self.paths[i])  # in the Dataset: runs in DataLoader workers
        return torch.from_numpy(np.ascontiguousarray(img)).permute(2, 0, 1)


def train(model, loader, optimizer, device):
    model.to(device)
    for step, x in enumerate(loader):
        with torch.autocast("cuda"):
            loss = model(x.to(device, non_blocking=True)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 500 == 0:
            np.save(f"sample_{step}.npy", x[:4].numpy())  # every 500 steps: fine
