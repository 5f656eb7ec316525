# source: https://github.com/jemisjoky/TorchMPS/pull/9
# also: https://github.com/jemisjoky/TorchMPS/commit/a3eff02dfe54d9d2d8f2e52d0e846748241d93d3
# kind: tensor_no_device_in_forward
# bug: the matrix-product-state region built its dummy boundary vectors with `torch.zeros(dim)` (and its embedded input with `torch.empty`) inside forward, so they stayed on the CPU while the cores and the input were on CUDA (issue #8); the fix creates them on the input's device.
# split: test3
import torch
import torch.nn as nn


class ContractableRegion(nn.Module):
    def __init__(self, n_sites, bond_dim, feature_dim=2):
        super().__init__()
        self.cores = nn.Parameter(torch.randn(n_sites, bond_dim, feature_dim, bond_dim) * 0.1)
        self.bond_dim = bond_dim

    def embed(self, pixels):
        return torch.stack([pixels, 1 - pixels], dim=2)

    def forward(self, pixels):
        feats = self.embed(pixels)
        mats = torch.einsum("lifr,bif->bilr", self.cores, feats)
        ends = [torch.zeros(self.bond_dim) for _ in range(2)]  # bug: tensor_no_device_in_forward
        for vec in ends:
            vec[0] = 1
        left = ends[0].expand(pixels.size(0), -1)
        for i in range(mats.size(1)):
            left = torch.bmm(left.unsqueeze(1), mats[:, i]).squeeze(1)
        return left @ ends[1]


if __name__ == "__main__":
    region = ContractableRegion(n_sites=16, bond_dim=8).cuda()
    x = torch.rand(4, 16, device="cuda")
    print(region(x).shape)
