# source: https://github.com/rasbt/LLMs-from-scratch/pull/436
# also: https://github.com/rasbt/LLMs-from-scratch/commit/f61c008c5d7c7e3af178cbf02af91baf08ae3cfc
# kind: inputs_not_moved
# bug: the standalone GPT text-generation script moved the model to CUDA when available but passed the encoded prompt (built on the CPU by a tokenizer helper) straight into the sampling loop; the fix appends `.to(device)` to the prompt ids.
# split: test19
import torch
import torch.nn as nn


class TinyGPT(nn.Module):
    def __init__(self, vocab=1000, dim=64, ctx=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, 4 * dim, batch_first=True)
        self.out = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        return self.out(self.block(self.tok(idx) + self.pos(pos)))


def encode(text, vocab=1000):
    ids = [hash(w) % vocab for w in text.split()]
    return torch.tensor(ids).unsqueeze(0)


def generate(model, idx, max_new_tokens, context_size, top_k=20):
    for _ in range(max_new_tokens):
        with torch.no_grad():
            logits = model(idx[:, -context_size:])[:, -1, :]
        top, _ = torch.topk(logits, top_k)
        logits = torch.where(logits < top[:, -1:], torch.full_like(logits, float("-inf")), logits)
        nxt = torch.multinomial(torch.softmax(logits, dim=-1), 1)
        idx = torch.cat((idx, nxt), dim=1)
    return idx


def main(prompt):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = TinyGPT()
    model.to(device)
    model.eval()
    out = generate(
        model=model,
        idx=encode(prompt),  # bug: inputs_not_moved
        max_new_tokens=10,
        context_size=32,
    )
    print(out.tolist())


if __name__ == "__main__":
    main("every effort moves you")
