# source: https://github.com/TransformerLensOrg/TransformerLens/issues/1508
# also: https://github.com/TransformerLensOrg/TransformerLens/pull/1509
# kind: other
# bug: generate() kept a second name for the prompt tokens bound before the prompt was moved with .to(device), so that alias stayed on the CPU and was later concatenated with tokens sampled on CUDA; the fix re-pointed the alias at the moved tensor.
# split: test2
import torch


class TinyDecoder(torch.nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, dim)
        self.head = torch.nn.Linear(dim, vocab)
        self.device = "cuda"

    def forward(self, ids):
        return self.head(self.emb(ids))

    @torch.no_grad()
    def generate(self, prompt_ids, steps=5):
        prompt_copy = prompt_ids
        ids = prompt_ids.to(self.device)
        new_tokens = []
        for _ in range(steps):
            nxt = self(ids)[:, -1].argmax(-1, keepdim=True)
            new_tokens.append(nxt)
            ids = torch.cat([ids, nxt], dim=1)
        return torch.cat([prompt_copy] + new_tokens, dim=1)  # bug: other
