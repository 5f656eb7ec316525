# source: https://github.com/eriklindernoren/PyTorch-YOLOv3/issues/35
# kind: wrong_device_choice
# bug: the train/test scripts computed `cuda = True if torch.cuda.is_available else False`, testing the function object instead of calling it, so the flag was always True and the scripts moved the model and batches to CUDA even on machines without a GPU; the fix calls torch.cuda.is_available() (and adds a --use_cuda switch).
# split: test21
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyDetector(nn.Module):
    def __init__(self, num_classes=80, num_anchors=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
        )
        self.head = nn.Conv2d(32, num_anchors * (5 + num_classes), 1)

    def forward(self, x):
        return self.head(self.backbone(x))


parser = argparse.ArgumentParser()
parser.add_argument("--batch_size", type=int, default=4)
parser.add_argument("--img_size", type=int, default=64)
parser.add_argument("--conf_thres", type=float, default=0.5)
opt = parser.parse_args([])
print(opt)

cuda = True if torch.cuda.is_available else False  # bug: wrong_device_choice

model = TinyDetector()
if cuda:
    model = model.cuda()
model.eval()

images = torch.randn(8, 3, opt.img_size, opt.img_size)
targets = torch.rand(8, 5, 5)
dataloader = DataLoader(TensorDataset(images, targets), batch_size=opt.batch_size, shuffle=False)

Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor

scores = []
for batch_i, (imgs, tgts) in enumerate(dataloader):
    imgs = imgs.type(Tensor)
    tgts = tgts.type(Tensor)
    with torch.no_grad():
        output = model(imgs)
    conf = output[:, 4::85].sigmoid()
    scores.append((conf > opt.conf_thres).float().mean().item())

print("mean detections above threshold:", sum(scores) / len(scores))
