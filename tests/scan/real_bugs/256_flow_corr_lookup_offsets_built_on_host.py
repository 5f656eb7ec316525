# source: https://github.com/princeton-vl/RAFT/pull/113
# also: https://github.com/princeton-vl/RAFT/commit/aac9dd54726caf2cf81d8661b07663e220c5586d
# kind: per_step_host_alloc
# bug: the optical-flow correlation lookup, run at every pyramid level of every refinement iteration, built its offset grid with `torch.linspace`/`torch.meshgrid` on the host and copied it with `.to(coords.device)` (and the coordinate grids likewise with `.to(img.device)`), a host allocation and a synchronising copy per call; the PR creates them with `device=coords.device` directly.
# split: test11
import torch
import torch.nn.functional as F


def bilinear_sample(img, coords):
    h, w = img.shape[-2:]
    xgrid, ygrid = coords.split([1, 1], dim=-1)
    xgrid = 2 * xgrid / (w - 1) - 1
    ygrid = 2 * ygrid / (h - 1) - 1
    return F.grid_sample(img, torch.cat([xgrid, ygrid], dim=-1), align_corners=True)


class CorrPyramid:
    def __init__(self, fmap1, fmap2, num_levels=4, radius=4):
        self.num_levels = num_levels
        self.radius = radius
        b, c, h, w = fmap1.shape
        corr = torch.matmul(fmap1.view(b, c, h * w).transpose(1, 2), fmap2.view(b, c, h * w))
        corr = corr.view(b * h * w, 1, h, w) / c ** 0.5
        self.levels = [corr]
        for _ in range(num_levels - 1):
            corr = F.avg_pool2d(corr, 2, stride=2)
            self.levels.append(corr)

    def __call__(self, coords):
        r = self.radius
        coords = coords.permute(0, 2, 3, 1)
        b, h, w, _ = coords.shape
        out = []
        for i, corr in enumerate(self.levels):
            dx = torch.linspace(-r, r, 2 * r + 1)
            dy = torch.linspace(-r, r, 2 * r + 1)
            delta = torch.stack(torch.meshgrid(dy, dx, indexing="ij"), dim=-1).to(coords.device)  # bug: per_step_host_alloc
            centroid = coords.reshape(b * h * w, 1, 1, 2) / 2 ** i
            sampled = bilinear_sample(corr, centroid + delta.view(1, 2 * r + 1, 2 * r + 1, 2))
            out.append(sampled.view(b, h, w, -1))
        return torch.cat(out, dim=-1).permute(0, 3, 1, 2).contiguous()


def estimate_flow(encoder, update_block, image1, image2, iters=12):
    fmap1, fmap2 = encoder(image1), encoder(image2)
    lookup = CorrPyramid(fmap1, fmap2)
    n, _, h, w = fmap1.shape
    ys, xs = torch.meshgrid(torch.arange(h, device=image1.device), torch.arange(w, device=image1.device), indexing="ij")
    coords0 = torch.stack([xs, ys], dim=0).float()[None].repeat(n, 1, 1, 1)
    coords1 = coords0.clone()
    for _ in range(iters):
        corr = lookup(coords1.detach())
        coords1 = coords1 + update_block(corr, coords1 - coords0)
    return coords1 - coords0


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    enc = torch.nn.Conv2d(3, 64, 8, stride=8).to(device)
    upd = torch.nn.Conv2d(4 * 81 + 2, 2, 3, padding=1).to(device)
    img1 = torch.randn(1, 3, 256, 256, device=device)
    img2 = torch.randn(1, 3, 256, 256, device=device)
    step = lambda corr, flow: upd(torch.cat([corr, flow], dim=1))
    print(estimate_flow(enc, step, img1, img2).shape)
