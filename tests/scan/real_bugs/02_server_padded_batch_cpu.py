# source: https://github.com/mosecorg/mosec/pull/98
# kind: inputs_not_moved
# bug: An inference worker kept its model on the CUDA device but fed it a batch built with pad_sequence on the CPU; the fix moves the padded batch to the worker's device before the call.
# split: test
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class EmbedWorker:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.encoder = nn.Sequential(
            nn.Embedding(5000, 64),
            nn.Linear(64, 32),
        ).to(self.device)
        self.encoder.eval()

    def handle(self, token_lists):
        pieces = [torch.tensor(t, dtype=torch.long) for t in token_lists]
        batch = pad_sequence(pieces, batch_first=True)
        with torch.no_grad():
            vectors = self.encoder(batch)[:, 0]  # bug: inputs_not_moved
        return vectors.cpu().tolist()


if __name__ == "__main__":
    w = EmbedWorker()
    print(len(w.handle([[1, 2, 3], [4, 5]])))
