# source: https://github.com/allenai/allennlp/pull/433
# kind: tensor_no_device_in_forward
# bug: The seq2seq decoder created its initial context and start tokens with torch.zeros(...) inside "with torch.cuda.device_of(hidden)", believing that put them on the hidden state's device, but the tensors were still CPU tensors; the fix derives them from an existing tensor of the right device.
# split: test
import torch
import torch.nn as nn


class GreedyDecoder(nn.Module):
    def __init__(self, vocab, dim, start_id=1, max_steps=20):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cell = nn.GRUCell(2 * dim, dim)
        self.out = nn.Linear(dim, vocab)
        self.dim = dim
        self.start_id = start_id
        self.max_steps = max_steps

    def forward(self, enc_final):
        hidden = enc_final
        with torch.cuda.device_of(hidden):
            context = torch.zeros(hidden.shape[0], self.dim)  # bug: tensor_no_device_in_forward
            token = torch.full((hidden.shape[0],), self.start_id, dtype=torch.long)  # bug: tensor_no_device_in_forward
        steps = []
        for _ in range(self.max_steps):
            hidden = self.cell(torch.cat([self.emb(token), context], -1), hidden)
            logits = self.out(hidden)
            token = logits.argmax(-1)
            steps.append(logits)
        return torch.stack(steps, 1)
