# source: https://github.com/karpathy/llama2.c/pull/23
# also: https://github.com/karpathy/llama2.c/commit/af3b5c036460783ff0238be2d92e70ebcbcfde57
# kind: attribute_not_buffer
# bug: the small Llama model kept its precomputed rotary frequency table as a plain attribute, so `model.to(device)` left it on the CPU and every forward copied it to the GPU with `self.freqs_cis = self.freqs_cis.to(h.device)` (also blocking CUDA graphs); the merged fix registers it as a non-persistent buffer and drops the per-forward copy.
# split: test15
import torch
import torch.nn as nn
import torch.nn.functional as F


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end).float()
    return torch.polar(torch.ones(end, dim // 2), torch.outer(t, freqs))


def apply_rotary(x, freqs_cis):
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    out = torch.view_as_real(xc * freqs_cis[None, :, None, :]).flatten(3)
    return out.type_as(x)


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, freqs_cis):
        b, t, d = x.shape
        q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.n_heads, d // self.n_heads).unbind(2)
        q, k = apply_rotary(q, freqs_cis), apply_rotary(k, freqs_cis)
        y = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.n2(x))


class TinyLlama(nn.Module):
    def __init__(self, vocab=32000, dim=288, n_layers=6, n_heads=6, max_seq_len=256):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.out = nn.Linear(dim, vocab, bias=False)
        self.freqs_cis = precompute_freqs_cis(dim // n_heads, max_seq_len * 2)  # bug: attribute_not_buffer

    def forward(self, tokens, targets=None):
        _, seqlen = tokens.shape
        h = self.tok(tokens)
        self.freqs_cis = self.freqs_cis.to(h.device)
        freqs_cis = self.freqs_cis[:seqlen]
        for layer in self.layers:
            h = layer(h, freqs_cis)
        logits = self.out(h)
        if targets is None:
            return logits
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = TinyLlama().to(device)
    x = torch.randint(0, 32000, (4, 256), device=device)
    print(model(x, x).item())
