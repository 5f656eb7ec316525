# source: https://github.com/maciejkula/spotlight/pull/87
# also: https://github.com/maciejkula/spotlight/commit/c61e91962986fb5125b64a6be0652032e742ec7c
# kind: inputs_not_moved
# bug: the sequence-recommender's minibatch iterator took a `use_cuda` flag but called its `gpu(...)` helper without passing it, so the helper's `False` default left every batch on the CPU while the model (moved with the flag) sat on CUDA; the merged fix forwards `use_cuda` to the helper.
# split: test15
import numpy as np
import torch
import torch.nn as nn


def gpu(tensor, use_cuda=False):
    return tensor.cuda() if use_cuda else tensor


class SequenceData:
    def __init__(self, sequences_by_length):
        self.sequences = sequences_by_length

    def minibatch(self, batch_size, random_state=None, use_cuda=False):
        random_state = random_state or np.random.RandomState()
        batches = []
        for key, value in self.sequences.items():
            random_state.shuffle(value)
            batches.extend([key, i, i + batch_size] for i in range(0, len(value), batch_size))
        batches = np.array(batches, dtype=np.int64)
        random_state.shuffle(batches)
        tensor_data = {k: gpu(torch.from_numpy(v)) for (k, v) in self.sequences.items()}  # bug: inputs_not_moved
        for key, start, stop in batches:
            batch = tensor_data[key][start:stop]
            if len(batch) == batch_size:
                yield batch


class PoolNet(nn.Module):
    def __init__(self, num_items, dim=32):
        super().__init__()
        self.emb = nn.Embedding(num_items, dim, padding_idx=0)
        self.bias = nn.Embedding(num_items, 1, padding_idx=0)

    def forward(self, seq, targets):
        user = torch.cumsum(self.emb(seq), dim=1) / torch.arange(1, seq.shape[1] + 1, device=seq.device)[None, :, None]
        return (user * self.emb(targets)).sum(-1) + self.bias(targets).squeeze(-1)


class SequenceModel:
    def __init__(self, num_items, batch_size=256, use_cuda=False):
        self._use_cuda = use_cuda
        self._batch_size = batch_size
        self._net = gpu(PoolNet(num_items), use_cuda)
        self._opt = torch.optim.Adam(self._net.parameters(), lr=1e-2)

    def fit(self, data, epochs=5):
        for _ in range(epochs):
            for seq in data.minibatch(self._batch_size, use_cuda=self._use_cuda):
                inputs, targets = seq[:, :-1], seq[:, 1:]
                loss = -torch.log(torch.sigmoid(self._net(inputs, targets)) + 1e-8).mean()
                self._opt.zero_grad()
                loss.backward()
                self._opt.step()
