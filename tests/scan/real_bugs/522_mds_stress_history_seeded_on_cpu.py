# source: https://github.com/lucidrains/alphafold2/pull/60
# kind: other
# bug: the differentiable MDS helper that turns a predicted distogram into 3D coordinates seeded its stress history list with torch.tensor([inf] * batch) without a device while every later entry was computed from the CUDA distance matrix, so the final torch.stack(history) mixed CPU and CUDA tensors and failed on the GPU; the fix creates the seed entry on the distance matrix's device.
# split: test25
import numpy as np
import torch


def center_distogram(logits, bins):
    probs = logits.softmax(dim=-1)
    central = (probs * bins).sum(dim=-1)
    weights = torch.ones_like(central)
    return central, weights


def mds_torch(dist, weights=None, iters=10, tol=1e-5):
    device, dtype = dist.device, dist.dtype
    if weights is None:
        weights = torch.ones_like(dist)
    if dist.dim() == 2:
        dist = dist.unsqueeze(0)
    batch, n, _ = dist.shape
    diag = np.arange(n)
    history = [torch.tensor([np.inf] * batch)]  # bug: other
    best_stress = float("inf") * torch.ones(batch, device=device, dtype=dtype)
    coords = 2 * torch.rand(batch, n, 3, device=device, dtype=dtype) - 1
    for _ in range(iters):
        cur = torch.cdist(coords, coords, p=2).clone()
        stress = (weights * (cur - dist) ** 2).sum(dim=(-1, -2)) * 0.5
        cur[cur <= 0] += 1e-7
        ratio = weights * (dist / cur)
        b = -ratio
        b[:, diag, diag] += ratio.sum(dim=-1)
        new = torch.matmul(b, coords) / n
        norm = torch.norm(new, dim=(-1, -2))
        if (best_stress - stress / norm).mean() <= tol:
            break
        coords = new
        history.append(stress / norm)
    return coords.transpose(-1, -2), torch.stack(history)


def distogram_to_coords(logits, bins):
    central, weights = center_distogram(logits, bins)
    return mds_torch(central, weights)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    bins = torch.linspace(2.0, 20.0, 37, device=dev)
    logits = torch.randn(2, 16, 16, 37, device=dev)
    xyz, stresses = distogram_to_coords(logits, bins)
    print(xyz.shape, stresses.shape)
