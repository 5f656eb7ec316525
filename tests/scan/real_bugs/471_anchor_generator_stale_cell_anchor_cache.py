# source: https://github.com/pytorch/vision/pull/1745
# kind: other
# bug: the detection anchor generator cached its per-level cell anchors in a plain list attribute on the device of the first forward call and reused them whenever the cache was non-empty, so a model trained on the GPU and then moved to the CPU (or the reverse) decoded boxes against anchors on the old device; the fix regenerates the cell anchors when the cached device differs from the feature maps' device.
# split: test22
from typing import List, Tuple

import torch
import torch.nn as nn


class AnchorGen(nn.Module):
    def __init__(self, sizes=((32,), (64,), (128,)), aspect_ratios=((0.5, 1.0, 2.0),) * 3):
        super().__init__()
        self.sizes = sizes
        self.aspect_ratios = aspect_ratios
        self.cell_anchors = None
        self._cache = {}

    @staticmethod
    def generate_anchors(scales, aspect_ratios, dtype=torch.float32, device="cpu"):
        scales = torch.as_tensor(scales, dtype=dtype, device=device)
        ratios = torch.as_tensor(aspect_ratios, dtype=dtype, device=device)
        h_ratios = torch.sqrt(ratios)
        w_ratios = 1 / h_ratios
        ws = (w_ratios[:, None] * scales[None, :]).view(-1)
        hs = (h_ratios[:, None] * scales[None, :]).view(-1)
        return (torch.stack([-ws, -hs, ws, hs], dim=1) / 2).round()

    def set_cell_anchors(self, dtype, device):
        if self.cell_anchors is not None:  # bug: other
            return
        self.cell_anchors = [
            self.generate_anchors(s, a, dtype, device) for s, a in zip(self.sizes, self.aspect_ratios)
        ]

    def grid_anchors(self, grid_sizes, strides):
        anchors = []
        for (gh, gw), (sh, sw), base in zip(grid_sizes, strides, self.cell_anchors):
            device = base.device
            shifts_x = torch.arange(0, gw, dtype=torch.float32, device=device) * sw
            shifts_y = torch.arange(0, gh, dtype=torch.float32, device=device) * sh
            sy, sx = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
            sx, sy = sx.reshape(-1), sy.reshape(-1)
            shifts = torch.stack((sx, sy, sx, sy), dim=1)
            anchors.append((shifts.view(-1, 1, 4) + base.view(1, -1, 4)).reshape(-1, 4))
        return anchors

    def cached_grid_anchors(self, grid_sizes, strides):
        key = str(grid_sizes) + str(strides)
        if key in self._cache:
            return self._cache[key]
        anchors = self.grid_anchors(grid_sizes, strides)
        self._cache[key] = anchors
        return anchors

    def forward(self, image_size: Tuple[int, int], feature_maps: List[torch.Tensor]):
        grid_sizes = [fm.shape[-2:] for fm in feature_maps]
        strides = [(image_size[0] // g[0], image_size[1] // g[1]) for g in grid_sizes]
        self.set_cell_anchors(feature_maps[0].dtype, feature_maps[0].device)
        per_level = self.cached_grid_anchors(grid_sizes, strides)
        self._cache.clear()
        return torch.cat(per_level)


class TinyRPN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 8, 3, stride=s, padding=1) for s in (8, 16, 32)])
        self.anchor_gen = AnchorGen()
        self.bbox = nn.ModuleList([nn.Conv2d(8, 12, 1) for _ in range(3)])

    def forward(self, images):
        feats = [conv(images) for conv in self.backbone]
        anchors = self.anchor_gen(images.shape[-2:], feats)
        deltas = torch.cat([h(f).permute(0, 2, 3, 1).reshape(images.shape[0], -1, 4) for h, f in zip(self.bbox, feats)], dim=1)
        return anchors.unsqueeze(0) + deltas


if __name__ == "__main__":
    model = TinyRPN().cuda()
    model(torch.rand(2, 3, 256, 256, device="cuda"))
    model = model.cpu().eval()
    with torch.no_grad():
        boxes = model(torch.rand(1, 3, 256, 256))
