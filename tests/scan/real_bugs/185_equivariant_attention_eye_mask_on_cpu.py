# source: https://github.com/lucidrains/se3-transformer-pytorch/issues/2
# also: https://github.com/lucidrains/se3-transformer-pytorch/commit/56897f8f0d56b4d22c97f21a80295fafa79c679e
# kind: tensor_no_device_in_forward
# bug: the equivariant transformer's forward built its "exclude self" neighbour mask with ~torch.eye(n, dtype=torch.bool) and no device, while the neighbour indices next to it were made with device=device, so masked_select on the CUDA coordinates failed; the fix passes device=device to torch.eye.
# split: test7
import torch
import torch.nn as nn


class PointAttention(nn.Module):
    def __init__(self, dim, num_tokens=None, num_neighbors=8):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim) if num_tokens else None
        self.num_neighbors = num_neighbors
        self.to_qkv = nn.Linear(dim, dim * 3)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, feats, coors, mask=None):
        if self.token_emb is not None:
            feats = self.token_emb(feats)
        b, n, d, device = *feats.shape, feats.device
        neighbors = min(self.num_neighbors, n - 1)

        exclude_self = ~torch.eye(n, dtype=torch.bool)  # bug: tensor_no_device_in_forward
        exclude_self = exclude_self[None]
        indices = torch.arange(n, device=device)[None, :, None].expand(b, n, n)
        rel_pos = coors[:, :, None, :] - coors[:, None, :, :]

        indices = indices.masked_select(exclude_self).reshape(b, n, n - 1)
        rel_pos = rel_pos.masked_select(exclude_self[..., None]).reshape(b, n, n - 1, 3)
        rel_dist, nearest = rel_pos.norm(dim=-1).topk(neighbors, dim=-1, largest=False)
        nbr_idx = indices.gather(2, nearest)

        q, k, v = self.to_qkv(feats).chunk(3, dim=-1)
        k_n = k[torch.arange(b, device=device)[:, None, None], nbr_idx]
        v_n = v[torch.arange(b, device=device)[:, None, None], nbr_idx]
        attn = (q[:, :, None] * k_n).sum(-1) / d ** 0.5 - rel_dist
        out = (attn.softmax(-1)[..., None] * v_n).sum(2)
        return self.to_out(out)


if __name__ == "__main__":
    dev = "cuda"
    model = PointAttention(dim=16, num_tokens=4).to(dev)
    atoms = torch.randint(0, 4, (2, 32), device=dev)
    coors = torch.randn(2, 32, 3, device=dev)
    model(atoms, coors).sum().backward()
