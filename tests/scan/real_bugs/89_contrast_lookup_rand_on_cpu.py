# source: https://github.com/balbasty/cornucopia/pull/22
# also: https://github.com/balbasty/cornucopia/commit/a69c96cf810bb120baecf2995e5d0067fbc8b400
# kind: tensor_no_device_in_forward
# bug: the random contrast-lookup augmentation drew its new class means with torch.rand(nk) on the CPU and scaled them by the min/max of the (CUDA) image, which raised a device mismatch for GPU images; the fix creates the random tensor with the image's device and dtype.
# split: test2
import torch


class LookupContrast:
    def __init__(self, edges, means):
        self.edges = edges
        self.means = means

    def __call__(self, img):
        edges, means = self.edges.to(img), self.means.to(img)
        centres = (edges[:-1] + edges[1:]) / 2
        out = img.clone()
        for k in range(len(means)):
            sel = (edges[k] <= img) & (img < edges[k + 1])
            out[sel] += means[k] - centres[k]
        return out


class RandomContrastLookup:
    def __init__(self, n_classes: int = 16):
        self.n_classes = n_classes

    def sample(self, img: torch.Tensor) -> LookupContrast:
        lo, hi = img.min(), img.max()
        edges = torch.linspace(float(lo), float(hi), self.n_classes + 1)
        means = torch.rand(self.n_classes) * (hi - lo) + lo  # bug: tensor_no_device_in_forward
        return LookupContrast(edges, means)

    def __call__(self, img: torch.Tensor) -> torch.Tensor:
        return self.sample(img)(img)


if __name__ == "__main__":
    vol = torch.randn(1, 64, 64, 64, device="cuda")
    print(RandomContrastLookup(8)(vol).shape)
