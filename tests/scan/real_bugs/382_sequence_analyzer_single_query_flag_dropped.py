# source: https://github.com/FunctionLab/selene/pull/141
# also: https://github.com/FunctionLab/selene/commit/188b06058ad5983f8cc846e4a5e642cd584182ae
# kind: inputs_not_moved
# bug: the sequence analyser moved its model to the GPU when use_cuda was set and passed the flag to the shared predict helper in every batch path, but the single-sequence branch of get_predictions called the helper without it, so the helper's default left the encoded input on the CPU; the fix forwards use_cuda=self.use_cuda.
# split: test18
import numpy as np
import torch
import torch.nn as nn


def run_batch(model, batch, use_cuda=False):
    inputs = torch.Tensor(batch)
    if use_cuda:
        inputs = inputs.cuda()
    with torch.no_grad():
        out = model(inputs.transpose(1, 2))
    return out.cpu().numpy()


class TinyDeepSEA(nn.Module):
    def __init__(self, n_targets=10):
        super().__init__()
        self.conv = nn.Conv1d(4, 32, 8)
        self.pool = nn.AdaptiveMaxPool1d(1)
        self.fc = nn.Linear(32, n_targets)

    def forward(self, x):
        return torch.sigmoid(self.fc(self.pool(torch.relu(self.conv(x))).squeeze(-1)))


class SequenceAnalyzer:
    ALPHABET = "ACGT"

    def __init__(self, model, seq_len=100, use_cuda=False):
        self.model = model.eval()
        self.seq_len = seq_len
        self.use_cuda = use_cuda
        if self.use_cuda:
            self.model.cuda()

    def encode(self, seq):
        seq = seq[: self.seq_len].ljust(self.seq_len, "N")
        enc = np.zeros((len(seq), 4), dtype=np.float32)
        for i, base in enumerate(seq):
            if base in self.ALPHABET:
                enc[i, self.ALPHABET.index(base)] = 1.0
        return enc

    def predict_many(self, seqs):
        batch = np.stack([self.encode(s) for s in seqs])
        return run_batch(self.model, batch, use_cuda=self.use_cuda)

    def get_predictions(self, query):
        if query.endswith((".fa", ".fasta")):
            with open(query) as fh:
                seqs = [line.strip() for line in fh if not line.startswith(">")]
            return self.predict_many(seqs)
        enc = np.expand_dims(self.encode(query), axis=0)
        return run_batch(self.model, enc)  # bug: inputs_not_moved


if __name__ == "__main__":
    analyzer = SequenceAnalyzer(TinyDeepSEA(), use_cuda=torch.cuda.is_available())
    print(analyzer.get_predictions("ACGT" * 30).shape)
