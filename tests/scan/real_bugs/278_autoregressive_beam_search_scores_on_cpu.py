# source: https://github.com/harvardnlp/pytorch-struct/issues/48
# also: https://github.com/harvardnlp/pytorch-struct/pull/49
# kind: tensor_no_device_in_forward
# bug: the autoregressive distribution's beam search started its beam scores with `torch.zeros((beam,) + batch_shape)` and built the back-pointer offsets with `torch.arange(batch)`, both on the CPU, and added the CUDA logits of the user's decoder to them at every step, so beam search (argmax, top-k) failed for models on the GPU; the PR records `initial_state[0].device` and creates both tensors there.
# split: test12
import torch
import torch.nn as nn


class Autoregressive:
    def __init__(self, model, initial_state, n_classes, n_length, start_class=0):
        self.model = model
        self.init = initial_state
        self.n_classes = n_classes
        self.n_length = n_length
        self.start_class = start_class
        self.batch = initial_state[0].shape[0]

    def _take(self, state, positions):
        offsets = positions * self.batch + torch.arange(self.batch, device=positions.device).unsqueeze(0)
        return tuple(s[offsets.view(-1)] for s in state)

    def beam_topk(self, k):
        beam = torch.zeros((k, self.batch))  # bug: tensor_no_device_in_forward
        beam[1:] = -1e9
        tokens = torch.full((k * self.batch,), self.start_class, dtype=torch.long, device=self.init[0].device)
        state = tuple(s.unsqueeze(0).expand((k,) + s.shape).reshape((k * self.batch,) + s.shape[1:]) for s in self.init)
        history = []
        for _ in range(self.n_length):
            logits, state = self.model(tokens.unsqueeze(1), state)
            logits = logits.squeeze(1).log_softmax(-1).view(k, self.batch, self.n_classes)
            scores = (beam.unsqueeze(-1) + logits).permute(1, 0, 2).reshape(self.batch, -1)
            beam, flat = scores.topk(k, dim=-1)
            beam = beam.t()
            positions, tokens = (flat // self.n_classes).t(), (flat % self.n_classes).t().reshape(-1)
            state = self._take(state, positions)
            history.append((positions, tokens.view(k, self.batch)))
        return beam, history


class GRUDecoder(nn.Module):
    def __init__(self, n_classes=50, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(n_classes, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, tokens, state):
        h, hn = self.rnn(self.emb(tokens), state[0].unsqueeze(0).contiguous())
        return self.out(h), (hn.squeeze(0),)


if __name__ == "__main__":
    dec = GRUDecoder().cuda()
    dist = Autoregressive(dec, (torch.zeros(4, 128, device="cuda"),), n_classes=50, n_length=10)
    print(dist.beam_topk(5)[0].shape)
