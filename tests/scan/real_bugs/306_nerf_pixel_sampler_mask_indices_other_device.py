# source: https://github.com/nerfstudio-project/nerfstudio/pull/1061
# also: https://github.com/nerfstudio-project/nerfstudio/commit/8c3f093ecb6d38a4e4d0a9d331ee7bb3d7555a74
# kind: other
# bug: the NeRF pixel sampler took `device` from the image batch but computed the candidate pixel indices with `torch.nonzero` on the mask as it came, and the mask could live on a different device than the images (CUDA mask, CPU-cached images), so indexing the images with the mask's indices failed ("indices should be either on cpu or on the same device"); the merged fix moves the mask to `device` before `nonzero`.
# split: test14
import random
from typing import Dict

import torch


def sample_pixels(batch: Dict, num_rays: int, keep_full_image: bool = False):
    device = batch["image"].device
    num_images, height, width, _ = batch["image"].shape

    if "mask" in batch:
        nonzero = torch.nonzero(batch["mask"][..., 0], as_tuple=False)  # bug: other
        chosen = random.sample(range(len(nonzero)), k=num_rays)
        indices = nonzero[chosen]
    else:
        indices = torch.floor(
            torch.rand((num_rays, 3), device=device)
            * torch.tensor([num_images, height, width], device=device)
        ).long()

    c, y, x = (i.flatten() for i in torch.split(indices, 1, dim=-1))
    out = {k: v[c, y, x] for k, v in batch.items() if k != "image_idx" and v is not None}
    indices[:, 0] = batch["image_idx"][c]
    out["indices"] = indices
    if keep_full_image:
        out["full_image"] = batch["image"]
    return out


class PixelSampler:
    def __init__(self, num_rays_per_batch: int):
        self.num_rays_per_batch = num_rays_per_batch

    def sample(self, image_batch: Dict):
        return sample_pixels(image_batch, self.num_rays_per_batch)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    images = torch.rand(4, 64, 64, 3)
    batch = {
        "image_idx": torch.arange(4, device=dev),
        "image": images,
        "mask": (torch.rand(4, 64, 64, 1, device=dev) > 0.5),
    }
    rays = PixelSampler(1024).sample(batch)
