# source: https://github.com/lucidrains/slot-attention/issues/7
# also: https://github.com/lucidrains/slot-attention/commit/4224f9d3100469a99d73f0ef02a545cb39fbb8fb
# kind: tensor_no_device_in_forward
# bug: forward sampled the initial slots as mu + sigma * torch.randn(mu.shape), drawing the noise on the CPU while mu and sigma were CUDA parameters; the fix (release 1.1.1) passes device=inputs.device.
# split: test4
import torch
from torch import nn


class Slots(nn.Module):
    def __init__(self, num_slots, dim, iters=3, eps=1e-8):
        super().__init__()
        self.num_slots = num_slots
        self.iters = iters
        self.eps = eps
        self.scale = dim ** -0.5
        self.mu = nn.Parameter(torch.randn(1, 1, dim))
        self.log_sigma = nn.Parameter(torch.zeros(1, 1, dim))
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.gru = nn.GRUCell(dim, dim)
        self.norm_in = nn.LayerNorm(dim)
        self.norm_slots = nn.LayerNorm(dim)

    def forward(self, inputs, num_slots=None):
        b, n, d = inputs.shape
        k_slots = num_slots or self.num_slots
        mu = self.mu.expand(b, k_slots, -1)
        sigma = self.log_sigma.exp().expand(b, k_slots, -1)
        slots = mu + sigma * torch.randn(mu.shape)  # bug: tensor_no_device_in_forward
        inputs = self.norm_in(inputs)
        k, v = self.to_k(inputs), self.to_v(inputs)
        for _ in range(self.iters):
            prev = slots
            q = self.to_q(self.norm_slots(slots))
            attn = torch.einsum("bid,bjd->bij", q, k).mul(self.scale).softmax(dim=1) + self.eps
            attn = attn / attn.sum(dim=-1, keepdim=True)
            updates = torch.einsum("bjd,bij->bid", v, attn)
            slots = self.gru(updates.reshape(-1, d), prev.reshape(-1, d)).reshape(b, -1, d)
        return slots
