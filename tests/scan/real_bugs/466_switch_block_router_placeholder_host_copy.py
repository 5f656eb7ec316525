# source: https://github.com/huggingface/transformers/pull/26151
# kind: per_step_host_alloc
# bug: every dense (non-sparse) switch-transformer block built its placeholder router output with torch.tensor([0], device=hidden_states.device), which materialises the value on the host and copies it to the GPU on each forward call; the fix allocates it directly on the device with torch.zeros((1,), device=..., dtype=torch.int64).
# split: test22
import torch
import torch.nn as nn
import torch.nn.functional as F


class Top1Router(nn.Module):
    def __init__(self, d_model, num_experts):
        super().__init__()
        self.classifier = nn.Linear(d_model, num_experts, bias=False)
        self.num_experts = num_experts

    def forward(self, hidden):
        logits = self.classifier(hidden)
        probs = torch.softmax(logits, dim=-1)
        expert_index = torch.argmax(probs, dim=-1)
        return F.one_hot(expert_index, self.num_experts), probs.max(dim=-1, keepdim=True).values, logits


class SparseFF(nn.Module):
    def __init__(self, d_model, d_ff, num_experts):
        super().__init__()
        self.router = Top1Router(d_model, num_experts)
        self.experts = nn.ModuleList([
            nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
            for _ in range(num_experts)
        ])

    def forward(self, hidden):
        mask, probs, logits = self.router(hidden)
        out = hidden.clone()
        for idx, expert in enumerate(self.experts):
            sel = mask[..., idx].bool()
            out[sel] = expert(hidden[sel])
        return hidden + probs * out, (logits, mask.argmax(dim=-1))


class DenseFF(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.wi = nn.Linear(d_model, d_ff)
        self.wo = nn.Linear(d_ff, d_model)

    def forward(self, hidden):
        return hidden + self.wo(F.relu(self.wi(hidden)))


class SwitchBlock(nn.Module):
    def __init__(self, d_model=512, d_ff=2048, n_heads=8, sparse=False, num_experts=8):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)
        self.ff = SparseFF(d_model, d_ff, num_experts) if sparse else DenseFF(d_model, d_ff)

    def forward(self, hidden_states, output_router_logits=True):
        normed = self.norm(hidden_states)
        attn_out, _ = self.attn(normed, normed, normed)
        hidden_states = hidden_states + attn_out
        hidden_states = self.ff(hidden_states)

        if isinstance(hidden_states, tuple):
            hidden_states, router_tuple = hidden_states
        else:
            router_tuple = (torch.tensor([0], device=hidden_states.device),)  # bug: per_step_host_alloc

        if hidden_states.dtype == torch.float16 and torch.isinf(hidden_states).any():
            clamp = torch.finfo(hidden_states.dtype).max - 1000
            hidden_states = torch.clamp(hidden_states, min=-clamp, max=clamp)

        outputs = (hidden_states,)
        if output_router_logits:
            outputs = outputs + (router_tuple,)
        return outputs


class SwitchEncoder(nn.Module):
    def __init__(self, vocab=32128, d_model=512, layers=6, sparse_step=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList([
            SwitchBlock(d_model, sparse=(i % sparse_step == 1)) for i in range(layers)
        ])

    def forward(self, input_ids):
        h = self.embed(input_ids)
        all_router = []
        for blk in self.blocks:
            h, router = blk(h)
            all_router.append(router)
        return h, all_router


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SwitchEncoder().to(device)
    ids = torch.randint(0, 32128, (4, 64), device=device)
    for _ in range(10):
        out, routers = model(ids)
