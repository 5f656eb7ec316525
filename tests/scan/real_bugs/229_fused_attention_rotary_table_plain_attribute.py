# source: https://github.com/casper-hansen/AutoAWQ/pull/77
# also: https://github.com/casper-hansen/AutoAWQ/commit/841a231301b6d7698ebe0ce5a5d448cd906a642a
# kind: attribute_not_buffer
# bug: the fused quantized attention layer precomputed its rotary table (freqs_cis) in __init__ and kept it as a plain tensor attribute moved once to the device the layer was built on; when the offloading PR let accelerate dispatch the fused layers to other devices, the table stayed behind and the rotary product in forward mixed devices; the fix moves the table to the query's device inside apply_rotary_emb on every call (it was not registered as a buffer).
# split: test10
import torch
import torch.nn as nn


def precompute_rotary_table(dim, end, theta=10000.0):
    inv = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end, device=inv.device)
    angles = torch.outer(t, inv).float()
    return torch.polar(torch.ones_like(angles), angles)


def broadcast_table(table, x):
    shape = [d if i == 1 or i == x.ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return table.view(*shape)


def apply_rotary(xq, xk, table):
    xq_c = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], 2, -1).transpose(-2, -1).contiguous())
    xk_c = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], 2, -1).transpose(-2, -1).contiguous())
    table = broadcast_table(table, xq_c)
    xq_out = torch.view_as_real(xq_c * table).transpose(-2, -1).flatten(3)
    xk_out = torch.view_as_real(xk_c * table).transpose(-2, -1).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


class FusedQuantAttention(nn.Module):
    def __init__(self, hidden_size, n_heads, qkv_layer, o_proj, dev, max_seq_len):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = hidden_size // n_heads
        self.qkv_proj = qkv_layer
        self.o_proj = o_proj
        self.start_pos = 0
        self.rotary_table = precompute_rotary_table(self.head_dim, max_seq_len * 2).to(dev)  # bug: attribute_not_buffer

    def forward(self, hidden_states):
        bsz, seqlen, _ = hidden_states.shape
        qkv = self.qkv_proj(hidden_states).view(bsz, seqlen, 3, self.n_heads, self.head_dim)
        xq, xk, xv = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
        table = self.rotary_table[self.start_pos : self.start_pos + seqlen]
        xq, xk = apply_rotary(xq, xk, table)
        attn = torch.softmax(torch.einsum("bqhd,bkhd->bhqk", xq, xk) / self.head_dim ** 0.5, dim=-1)
        out = torch.einsum("bhqk,bkhd->bqhd", attn, xv).reshape(bsz, seqlen, -1)
        return self.o_proj(out)


def fuse_layers(model, max_seq_len):
    for i, block in enumerate(model.blocks):
        dev = next(block.parameters()).device
        block.attn = FusedQuantAttention(
            model.hidden_size, model.n_heads, block.attn.qkv_proj, block.attn.o_proj, dev, max_seq_len
        )
    return model


def load_offloaded(model, device_map):
    from accelerate import dispatch_model

    model = fuse_layers(model, max_seq_len=2048)
    return dispatch_model(model, device_map=device_map)
