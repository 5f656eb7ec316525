# source: https://github.com/open-mmlab/mmcv/pull/2158
# also: https://github.com/open-mmlab/mmcv/commit/47a61c3b825d5e448396a329229107c5b85ccda8
# kind: other
# bug: the deformable attention module's `init_weights` built its sampling-offset grid from `torch.arange(num_heads)` with no device and assigned it to the offsets' bias, so calling `init_weights()` after `model.to(device)` put a CPU tensor into a CUDA parameter and failed; the merged fix creates the angles on the device of the module's parameters.
# split: test16
import math

import torch
import torch.nn as nn


class MultiScaleDeformableAttention(nn.Module):
    def __init__(self, embed_dims=256, num_heads=8, num_levels=4, num_points=4):
        super().__init__()
        self.num_heads, self.num_levels, self.num_points = num_heads, num_levels, num_points
        self.sampling_offsets = nn.Linear(embed_dims, num_heads * num_levels * num_points * 2)
        self.attention_weights = nn.Linear(embed_dims, num_heads * num_levels * num_points)
        self.value_proj = nn.Linear(embed_dims, embed_dims)
        self.output_proj = nn.Linear(embed_dims, embed_dims)

    def init_weights(self):
        nn.init.constant_(self.sampling_offsets.weight, 0.0)
        thetas = torch.arange(self.num_heads, dtype=torch.float32) * (2.0 * math.pi / self.num_heads)  # bug: other
        grid_init = torch.stack([thetas.cos(), thetas.sin()], -1)
        grid_init = (grid_init / grid_init.abs().max(-1, keepdim=True)[0]).view(self.num_heads, 1, 1, 2)
        grid_init = grid_init.repeat(1, self.num_levels, self.num_points, 1)
        for i in range(self.num_points):
            grid_init[:, :, i, :] *= i + 1
        self.sampling_offsets.bias.data = grid_init.view(-1)
        nn.init.constant_(self.attention_weights.weight, 0.0)
        nn.init.constant_(self.attention_weights.bias, 0.0)
        nn.init.xavier_uniform_(self.value_proj.weight)
        nn.init.xavier_uniform_(self.output_proj.weight)

    def forward(self, query, value):
        v = self.value_proj(value)
        offsets = self.sampling_offsets(query)
        weights = self.attention_weights(query).softmax(-1)
        return self.output_proj(v + offsets.mean(-1, keepdim=True) * weights.mean(-1, keepdim=True))


if __name__ == "__main__":
    attn = MultiScaleDeformableAttention().to("cuda")
    attn.init_weights()
    q = torch.randn(2, 100, 256, device="cuda")
    print(attn(q, q).shape)
