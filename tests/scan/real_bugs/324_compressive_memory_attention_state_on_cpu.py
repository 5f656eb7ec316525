# source: https://github.com/vmarinowski/infini-attention/pull/1
# also: https://github.com/vmarinowski/infini-attention/commit/3a10bf08ff4d0eef46884d1f3f4c6389c84382b5
# kind: tensor_no_device_in_forward
# bug: the compressive-memory attention layer built its projections on `self.device`, but each forward started the per-head memory matrix and normaliser from `torch.zeros(...)` with no device, so the memory retrieval matmul mixed CPU state with CUDA queries; the merged fix moves both zero states to `self.device`.
# split: test15
import torch
import torch.nn as nn
import torch.nn.functional as F


class CompressiveMemoryAttention(nn.Module):
    def __init__(self, emb_dim=256, n_head=4, n_segments=4, seq_len=512, device="cpu"):
        super().__init__()
        self.n_head, self.d_head = n_head, emb_dim // n_head
        self.n_segments = n_segments
        self.device = device
        self.gate = nn.Parameter(torch.zeros(1, device=device))
        self.qkv = nn.Linear(emb_dim, 3 * emb_dim, device=device)
        self.out = nn.Linear(emb_dim, emb_dim, device=device)
        seg = seq_len // n_segments
        self.register_buffer("causal", torch.tril(torch.ones(seg, seg, device=device)))

    def forward(self, x):
        b, t, _ = x.shape
        seg = t // self.n_segments
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        shape = (b, self.n_segments, seg, self.n_head, self.d_head)
        q, k, v = (y.view(shape).permute(0, 3, 1, 2, 4) for y in (q, k, v))
        memory = torch.zeros((self.n_head, self.d_head, self.d_head))  # bug: tensor_no_device_in_forward
        norm = torch.zeros((self.n_head, self.d_head, 1))
        outs = []
        for i in range(self.n_segments):
            sq = F.elu(q[:, :, i]) + 1.0
            sk = F.elu(k[:, :, i]) + 1.0
            mem_read = (sq @ memory) / ((sq @ norm) + 1e-6)
            scores = (q[:, :, i] @ k[:, :, i].transpose(-2, -1)) / self.d_head ** 0.5
            scores = scores.masked_fill(self.causal == 0, float("-inf"))
            local = scores.softmax(-1) @ v[:, :, i]
            g = torch.sigmoid(self.gate)
            outs.append(g * mem_read + (1 - g) * local)
            memory = memory + sk.transpose(-2, -1) @ v[:, :, i]
            norm = norm + sk.sum(dim=-2, keepdim=True).transpose(-2, -1)
        y = torch.stack(outs, dim=2).permute(0, 2, 3, 1, 4).reshape(b, t, -1)
        return self.out(y)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    layer = CompressiveMemoryAttention(device=dev)
    print(layer(torch.randn(2, 512, 256, device=dev)).shape)
