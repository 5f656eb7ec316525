# source: https://github.com/maudzung/Complex-YOLOv4-Pytorch/pull/18
# also: https://github.com/maudzung/Complex-YOLOv4-Pytorch/commit/f1d7e4670a65efffa822ce09281c1d9c0118301d
# kind: loaded_weights_not_moved
# bug: the bird's-eye-view 3D detector's test script read the pretrained weights with a bare `torch.load(path)`, which restores tensors onto the device they were saved from, before it worked out the test device (`--no_cuda` / `--gpu_idx`), so testing on the CPU or on a different GPU than the one used for training failed while deserializing; the merged fix computes the device string first and loads with `map_location=` it.
# split: test14
import argparse
import os

import torch
import torch.nn as nn


class BEVDetector(nn.Module):
    def __init__(self, num_classes=3, num_anchors=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.LeakyReLU(0.1),
            nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.LeakyReLU(0.1),
        )
        self.head = nn.Conv2d(64, num_anchors * (num_classes + 7), 1)

    def forward(self, x):
        return self.head(self.backbone(x))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--pretrained_path", default="../checkpoints/complex_yolo/best.pth")
    p.add_argument("--no_cuda", action="store_true")
    p.add_argument("--gpu_idx", type=int, default=0)
    p.add_argument("--img_size", type=int, default=608)
    return p.parse_args()


if __name__ == "__main__":
    args = parse_args()
    model = BEVDetector()
    assert os.path.isfile(args.pretrained_path), f"No file at {args.pretrained_path}"
    model.load_state_dict(torch.load(args.pretrained_path))  # bug: loaded_weights_not_moved

    device = torch.device("cpu" if args.no_cuda else f"cuda:{args.gpu_idx}")
    model = model.to(device=device)
    model.eval()

    with torch.no_grad():
        for _ in range(10):
            bev = torch.rand(1, 3, args.img_size, args.img_size).to(device=device)
            out = model(bev)
            boxes = out.sigmoid().cpu().numpy()
