# source: https://github.com/OpenNMT/OpenNMT-py/pull/240
# also: https://github.com/OpenNMT/OpenNMT-py/commit/adc5a7cb8f9c83ca9be493774fdf530af79ea5a1
# kind: attribute_not_buffer
# bug: The Transformer decoder stored its subsequent-position mask as a plain tensor attribute (the attempted register_buffer did not take effect), so model.cuda() left it on the CPU; the fix registers the freshly built mask as a buffer.
# split: dev
import torch
import torch.nn as nn

LONGEST = 512


class CausalDecoderLayer(nn.Module):
    def __init__(self, d_model=128, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.ff = nn.Linear(d_model, d_model)
        self.future = torch.triu(torch.ones(LONGEST, LONGEST), diagonal=1).bool()  # bug: attribute_not_buffer

    def forward(self, x):
        t = x.shape[1]
        blocked = self.future[:t, :t]
        y, _ = self.attn(x, x, x, attn_mask=blocked)
        return self.ff(x + y)


if __name__ == "__main__":
    layer = CausalDecoderLayer()
    if torch.cuda.is_available():
        layer = layer.cuda()
        print(layer(torch.randn(2, 10, 128).cuda()).shape)
