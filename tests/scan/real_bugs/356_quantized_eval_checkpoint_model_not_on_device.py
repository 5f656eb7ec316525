# source: https://github.com/Samsung/TICO/pull/765
# also: https://github.com/Samsung/TICO/commit/2a2b10a17e95c1b5f5445876d5de0288f0b3a622
# kind: loaded_weights_not_moved
# bug: the evaluation example replaced the freshly loaded model with a whole pickled model from `torch.load(checkpoint)` and only called `.eval()` on it, so a checkpoint saved on another device stayed there while the evaluation ran on the configured runtime device; the merged fix loads with `map_location=ctx.device` and moves the model with `.to(ctx.device)`.
# split: test16
import argparse
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class EvalContext:
    model: nn.Module
    device: torch.device


class TinyLM(nn.Module):
    def __init__(self, vocab=32000, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        return self.lm_head(self.block(self.embed(ids)))


@torch.no_grad()
def perplexity(ctx, batches):
    total, count = 0.0, 0
    for ids in batches:
        ids = ids.to(ctx.device)
        logits = ctx.model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), ids[:, 1:].flatten(), reduction="sum")
        total += loss.item()
        count += ids[:, 1:].numel()
    return float(torch.exp(torch.tensor(total / count)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", default=None)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)
    ctx = EvalContext(model=TinyLM().to(device).eval(), device=device)
    if args.checkpoint:
        ctx.model = torch.load(args.checkpoint, weights_only=False).eval()  # bug: loaded_weights_not_moved
    batches = [torch.randint(0, 32000, (4, 128)) for _ in range(8)]
    print("ppl", perplexity(ctx, batches))


if __name__ == "__main__":
    main()
