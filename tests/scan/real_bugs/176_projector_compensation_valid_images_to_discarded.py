# source: https://github.com/BingyaoHuang/CompenNet/issues/2
# also: https://github.com/BingyaoHuang/CompenNet/commit/76f28961cd41136094eb63ce4eca163bfe673e53
# kind: to_result_discarded
# bug: the projector-compensation training script meant to "convert valid data to CUDA tensor" with cam_valid.to(device) and prj_valid.to(device) but never assigned the results, so validation fed CPU images to the CUDA network and failed with "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same"; the fix assigns cam_valid = cam_valid.to(device) (likewise for the other tensors).
# split: test6
import glob
import os

import numpy as np
import torch
import torch.nn as nn
from PIL import Image


def read_images(folder):
    files = sorted(glob.glob(os.path.join(folder, "*.png")))
    arr = np.stack([np.asarray(Image.open(f).convert("RGB")) for f in files])
    return torch.from_numpy(arr).permute(0, 3, 1, 2).float() / 255.0


class CompensationNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.surf = nn.Conv2d(3, 32, 3, padding=1)
        self.body = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 32, 3, padding=1))
        self.out = nn.Conv2d(32, 3, 3, padding=1)

    def forward(self, cam, surf):
        return torch.sigmoid(self.out(torch.relu(self.body(cam) - self.surf(surf))))


def main(root, iters=1000, batch=64):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    cam_surf = read_images(os.path.join(root, "cam/ref"))[:1]
    cam_train, prj_train = read_images(os.path.join(root, "cam/train")), read_images(os.path.join(root, "prj/train"))
    cam_valid, prj_valid = read_images(os.path.join(root, "cam/test")), read_images(os.path.join(root, "prj/test"))
    cam_valid.to(device)  # bug: to_result_discarded
    prj_valid.to(device)  # bug: to_result_discarded
    net = CompensationNet().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for it in range(iters):
        idx = torch.randint(0, cam_train.shape[0], (batch,))
        cam, prj = cam_train[idx].to(device), prj_train[idx].to(device)
        loss = nn.functional.l1_loss(net(cam, cam_surf.to(device).expand_as(cam)), prj)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if it % 100 == 0:
            with torch.no_grad():
                pred = net(cam_valid, cam_surf.to(device).expand_as(cam_valid))
                print(it, loss.item(), nn.functional.mse_loss(pred, prj_valid).item())
