# source: https://github.com/KUL-recon-lab/parallelproj/pull/120
# kind: other
# bug: the example scripts chose a torch device for the scanner geometry but built the ring positions with torch.linspace without a device, so the geometry mixed CPU ring coordinates with its CUDA endpoint tensors and the projector failed; the fix creates the ring positions on the chosen device.
# split: test20
import math

import torch


class RegularPolygonScanner:
    def __init__(self, device, radius, num_sides, num_lor_endpoints_per_side, lor_spacing, ring_positions):
        self.device = device
        self.radius = radius
        self.ring_positions = ring_positions
        phis = torch.arange(num_sides, device=device, dtype=torch.float32) * (2 * math.pi / num_sides)
        offsets = (torch.arange(num_lor_endpoints_per_side, device=device, dtype=torch.float32)
                   - (num_lor_endpoints_per_side - 1) / 2) * lor_spacing
        x = radius * torch.cos(phis)[:, None] - offsets[None, :] * torch.sin(phis)[:, None]
        y = radius * torch.sin(phis)[:, None] + offsets[None, :] * torch.cos(phis)[:, None]
        self.xy = torch.stack([x.reshape(-1), y.reshape(-1)], dim=-1)

    def endpoints(self):
        n_ring = self.ring_positions.shape[0]
        n_xy = self.xy.shape[0]
        xy = self.xy[None, :, :].expand(n_ring, n_xy, 2)
        z = self.ring_positions[:, None, None].expand(n_ring, n_xy, 1)
        return torch.cat([xy, z], dim=-1)


def forward_project(scanner, image, voxel_size=2.0):
    pts = scanner.endpoints().reshape(-1, 3)
    idx = (pts / voxel_size).round().long()
    idx = idx.clamp(min=0)
    for d in range(3):
        idx[:, d] = idx[:, d].clamp(max=image.shape[d] - 1)
    return image[idx[:, 0], idx[:, 1], idx[:, 2]]


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    num_rings = 5
    scanner = RegularPolygonScanner(
        dev,
        radius=65.0,
        num_sides=12,
        num_lor_endpoints_per_side=15,
        lor_spacing=2.3,
        ring_positions=torch.linspace(-10, 10, num_rings),  # bug: other
    )
    img = torch.rand(40, 40, 40, device=dev)
    print(forward_project(scanner, img).shape)
