# source: https://github.com/rasbt/reasoning-from-scratch/issues/177
# kind: hardcoded_cpu
# bug: the GRPO rollout sampler drew every next token with torch.multinomial(probas.cpu(), num_samples=1).to(device), copying the probability vector to the host and the sampled token back for each generated token, so RL training on a GPU paid a device-to-host round trip and sync per token (about 20 % of throughput); the fix (#178) samples directly on the device with torch.multinomial(probas, 1).
# split: test25
import torch
import torch.nn as nn


def top_p_filter(probas, top_p):
    sorted_p, idx = torch.sort(probas, dim=-1, descending=True)
    keep = sorted_p.cumsum(dim=-1) - sorted_p < top_p
    sorted_p = sorted_p * keep
    out = torch.zeros_like(probas).scatter(-1, idx, sorted_p)
    return out / out.sum(dim=-1, keepdim=True)


class TinyLM(nn.Module):
    def __init__(self, vocab=256, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)
        self.state = None

    def reset_cache(self):
        self.state = None

    def forward(self, ids):
        h, self.state = self.rnn(self.emb(ids), self.state)
        return self.out(h)


@torch.no_grad()
def sample_response(model, prompt_ids, device, eos_id=0, max_new_tokens=128, temperature=0.8, top_p=0.9):
    input_ids = torch.tensor(prompt_ids, device=device)
    model.reset_cache()
    logits = model(input_ids.unsqueeze(0))[:, -1]
    generated = []
    for _ in range(max_new_tokens):
        logits = logits / temperature
        probas = top_p_filter(torch.softmax(logits, dim=-1), top_p)
        next_token = torch.multinomial(probas.cpu(), num_samples=1).to(device)  # bug: hardcoded_cpu
        if next_token.item() == eos_id:
            break
        generated.append(next_token.item())
        logits = model(next_token)[:, -1]
    return generated


def collect_rollouts(model, prompt_ids, device, num_rollouts=4):
    model.eval()
    return [sample_response(model, prompt_ids, device) for _ in range(num_rollouts)]


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    lm = TinyLM().to(dev)
    outs = collect_rollouts(lm, [5, 17, 42, 99], dev)
    print([len(o) for o in outs])
