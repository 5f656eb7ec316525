# source: https://github.com/dvruette/figaro/pull/11
# also: https://github.com/dvruette/figaro/commit/85f54ac4491013650f5de3e8b28ae848a269971e
# kind: tensor_no_device_in_forward
# bug: the autoregressive sampling method of the music seq2seq model kept a per-sequence "current bar" tracker created with torch.zeros(batch_size) on the CPU and compared it with bar ids computed from the CUDA logits, crashing generation on the GPU; the fix creates the tracker on self.device.
# split: test19
import torch
import torch.nn as nn


class BarAwareDecoder(nn.Module):
    def __init__(self, vocab=512, dim=128, bar_token=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)
        self.bar_token = bar_token

    @property
    def device(self):
        return self.head.weight.device

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.head(h)

    @torch.no_grad()
    def sample(self, prompt, max_length=64):
        tokens = prompt.to(self.device)
        batch_size = tokens.size(0)
        curr_bars = torch.zeros(batch_size).fill_(-1)  # bug: tensor_no_device_in_forward
        for _ in range(tokens.size(1), max_length):
            logits = self.forward(tokens)[:, -1]
            next_tok = torch.multinomial(logits.softmax(-1), 1)
            tokens = torch.cat([tokens, next_tok], dim=1)
            next_bars = (tokens == self.bar_token).sum(dim=1).float() - 1
            bars_changed = not (next_bars == curr_bars).all()
            curr_bars = next_bars
            if bars_changed and next_bars.min() > 16:
                break
        return tokens


if __name__ == "__main__":
    model = BarAwareDecoder().to("cuda")
    out = model.sample(torch.randint(0, 512, (4, 8)))
    print(out.shape)
