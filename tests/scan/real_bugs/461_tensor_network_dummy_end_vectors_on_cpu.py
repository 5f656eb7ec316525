# source: https://github.com/jemisjoky/TorchMPS/issues/8
# kind: tensor_no_device_in_forward
# bug: the matrix-product-state region's forward built its dummy boundary vectors with torch.zeros(dim) and no device, so once the module had been moved to the GPU the contraction mixed CPU and CUDA tensors and bmm failed; the fix moves the end vectors to the input's device.
# split: test22
import torch
import torch.nn as nn


class EdgeVector:
    def __init__(self, vec, is_left):
        self.vec = vec
        self.is_left = is_left


class CoreBlock(nn.Module):
    def __init__(self, n_sites, in_dim, bond_dim):
        super().__init__()
        self.n_sites = n_sites
        self.cores = nn.Parameter(torch.randn(n_sites, in_dim, bond_dim, bond_dim) * 0.1)
        self.bond_dim = bond_dim

    def forward(self, x):
        mats = torch.einsum("bni,nilr->bnlr", x, self.cores)
        out = mats[:, 0]
        for k in range(1, self.n_sites):
            out = torch.bmm(out, mats[:, k])
        return out


class ChainRegion(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)

    def forward(self, input_data):
        contractable = []
        ind = 0
        for blk in self.blocks:
            n = blk.n_sites
            contractable.append(blk(input_data[:, ind:ind + n]))
            ind += n

        bond_dims = [self.blocks[0].bond_dim, self.blocks[-1].bond_dim]
        end_vecs = [torch.zeros(dim) for dim in bond_dims]  # bug: tensor_no_device_in_forward
        for v in end_vecs:
            v[0] = 1
        left = EdgeVector(end_vecs[0], is_left=True)
        right = EdgeVector(end_vecs[1], is_left=False)

        batch = input_data.shape[0]
        state = left.vec.unsqueeze(0).expand(batch, -1).unsqueeze(1)
        for mat in contractable:
            state = torch.bmm(state, mat)
        return torch.matmul(state.squeeze(1), right.vec)


def embed(pixels):
    return torch.stack([pixels, 1 - pixels], dim=2)


def main():
    device = "cuda:0"
    model = ChainRegion([CoreBlock(8, 2, 10), CoreBlock(8, 2, 10)]).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for _ in range(5):
        pixels = torch.rand(32, 16, device=device)
        target = torch.rand(32, device=device)
        pred = model(embed(pixels))
        loss = ((pred - target) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
