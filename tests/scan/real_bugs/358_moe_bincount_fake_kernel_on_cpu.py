# source: https://github.com/open-lm-engine/accelerated-model-architectures/pull/192
# also: https://github.com/open-lm-engine/accelerated-model-architectures/commit/682c8c263e458330f3978a6227e190b437aaa001
# kind: tensor_no_device_in_forward
# bug: the fake (meta) implementation registered for the MoE router's custom `bincount` op returned `torch.empty(minlength, dtype=torch.int)` with no device, so under `torch.compile` the traced expert counts were placed on the CPU while the real op ran on the GPU; the merged fix creates the fake result on `x.device`.
# split: test16
import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.library.custom_op("moe_demo::bincount", mutates_args=())
def bincount(x: torch.Tensor, minlength: int) -> torch.Tensor:
    return x.bincount(minlength=minlength).int()


@bincount.register_fake
def _fake_bincount(x: torch.Tensor, minlength: int) -> torch.Tensor:
    return torch.empty(minlength, dtype=torch.int)  # bug: tensor_no_device_in_forward


class ScatterMoE(nn.Module):
    def __init__(self, hidden=512, ffn=1024, num_experts=8, top_k=2):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.router = nn.Linear(hidden, num_experts, bias=False)
        self.w_in = nn.Parameter(torch.randn(num_experts, hidden, ffn) * 0.02)
        self.w_out = nn.Parameter(torch.randn(num_experts, ffn, hidden) * 0.02)

    def forward(self, x):
        logits = self.router(x)
        weights, experts = logits.softmax(-1).topk(self.top_k, dim=-1)
        sorted_experts, order = experts.flatten().sort()
        boundaries = bincount(sorted_experts, self.num_experts).cumsum(-1)
        tokens = x.repeat_interleave(self.top_k, dim=0)[order]
        out = torch.empty_like(tokens)
        start = 0
        for e in range(self.num_experts):
            end = int(boundaries[e])
            if end > start:
                out[start:end] = F.gelu(tokens[start:end] @ self.w_in[e]) @ self.w_out[e]
            start = end
        y = torch.empty_like(out)
        y[order] = out
        return (y.view(-1, self.top_k, x.shape[-1]) * weights.unsqueeze(-1)).sum(1)


if __name__ == "__main__":
    moe = torch.compile(ScatterMoE().cuda())
    print(moe(torch.randn(256, 512, device="cuda")).shape)
