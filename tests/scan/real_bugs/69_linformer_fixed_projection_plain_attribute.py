# source: https://github.com/tatp22/linformer-pytorch/issues/20
# also: https://github.com/tatp22/linformer-pytorch/commit/3be1acb7fd7fafbbccff0ff8521f383399db30d7
# kind: attribute_not_buffer
# bug: with the parameter-free option the key/value projection matrices were plain tensors stored as attributes, so .cuda() left them on the CPU and the matmul with CUDA keys failed; the fix moved them to the keys' device inside forward.
# split: dev2
import torch
from torch import nn


def make_projection(seq_len: int, k: int) -> torch.Tensor:
    mat = torch.zeros(seq_len, k)
    nn.init.normal_(mat, std=1.0 / k)
    return mat


class LowRankHead(nn.Module):
    def __init__(self, dim: int, seq_len: int, k: int):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.proj_k = make_projection(seq_len, k)  # bug: attribute_not_buffer
        self.proj_v = make_projection(seq_len, k)  # bug: attribute_not_buffer

    def forward(self, x):
        q = self.q(x)
        k, v = self.kv(x).chunk(2, dim=-1)
        k = torch.matmul(k.transpose(1, 2), self.proj_k).transpose(1, 2)
        v = torch.matmul(v.transpose(1, 2), self.proj_v).transpose(1, 2)
        attn = torch.softmax(q @ k.transpose(1, 2) / q.size(-1) ** 0.5, dim=-1)
        return attn @ v


if __name__ == "__main__":
    head = LowRankHead(64, 512, 32).cuda()
    print(head(torch.randn(4, 512, 64, device="cuda")).shape)
