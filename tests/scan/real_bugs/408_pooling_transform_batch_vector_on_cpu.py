# source: https://github.com/sukjulian/lab-gatr/pull/4
# also: https://github.com/sukjulian/lab-gatr/commit/499f4a1c95c89f38e8d162bc4a2f8debc55aa7b4
# kind: tensor_no_device_in_forward
# bug: the multi-scale point-cloud pooling transform, when the sample had no surface ids, built the default batch vector with torch.zeros(num_points, dtype=long) on the CPU, so running the transform on a GPU point cloud mixed a CPU batch vector with CUDA positions and sampling indices; the fix creates it on pos.device.
# split: test19
import torch


def farthest_point_sample(pos, batch, ratio):
    picked = []
    for b in torch.unique(batch):
        idx = (batch == b).nonzero().view(-1)
        pts = pos[idx]
        k = max(1, int(ratio * pts.size(0)))
        sel = [0]
        dist = torch.full((pts.size(0),), float("inf"), device=pos.device)
        for _ in range(k - 1):
            dist = torch.minimum(dist, (pts - pts[sel[-1]]).norm(dim=-1))
            sel.append(int(dist.argmax()))
        picked.append(idx[torch.tensor(sel, device=idx.device)])
    return torch.cat(picked)


def nearest_assign(src_pos, dst_pos, src_batch, dst_batch):
    d = torch.cdist(dst_pos, src_pos)
    d = d.masked_fill(dst_batch[:, None] != src_batch[None, :], float("inf"))
    return d.argmin(dim=1)


class MultiScalePooling:
    def __init__(self, ratios=(0.25, 0.25)):
        self.ratios = ratios

    def __call__(self, sample):
        pos = sample["pos"]
        if "surface_id" in sample:
            batch = sample["surface_id"].long()
        else:
            batch = torch.zeros(pos.size(0), dtype=torch.long)  # bug: tensor_no_device_in_forward
        for i, r in enumerate(self.ratios):
            idx = farthest_point_sample(pos, batch, r)
            sample[f"scale{i}_pool"] = nearest_assign(pos[idx], pos, batch[idx], batch)
            sample[f"scale{i}_index"] = idx
            pos, batch = pos[idx], batch[idx]
        return sample


if __name__ == "__main__":
    cloud = {"pos": torch.randn(2048, 3, device="cuda")}
    out = MultiScalePooling()(cloud)
    print({k: v.shape for k, v in out.items()})
