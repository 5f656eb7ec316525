# source: https://github.com/JSchlensok/VespaG/pull/25
# kind: numpy_of_device_tensor
# bug: the variant-effect prediction command loaded the scoring head onto get_device() and moved each protein embedding there, but stored the per-protein predictions with y.detach().numpy(), which raises for CUDA tensors, so prediction only worked on CPU-only machines; the fix inserts .cpu() before .numpy().
# split: test25
import numpy as np
import torch
import torch.nn as nn

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class ScoreHead(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, 32), nn.LeakyReLU(), nn.Linear(32, len(AMINO_ACIDS)))

    def forward(self, emb):
        return self.mlp(emb)


def mask_wildtype(y, sequence):
    for pos, aa in enumerate(sequence):
        y[pos, AMINO_ACIDS.index(aa)] = 0.0
    return y


def predict_all(sequences, embeddings, normalize=True):
    device = get_device()
    model = ScoreHead().eval().to(device, dtype=torch.float)
    scores = {}
    with torch.no_grad():
        for pid, seq in sequences.items():
            emb = embeddings[pid].to(device).unsqueeze(0)
            y = model(emb).squeeze(0)
            y = mask_wildtype(y, seq)
            scores[pid] = y.detach().numpy()  # bug: numpy_of_device_tensor
    if normalize:
        flat = np.concatenate([s.flatten() for s in scores.values()])
        lo, hi = flat.min(), flat.max()
        scores = {k: (v - lo) / (hi - lo) for k, v in scores.items()}
    return scores


if __name__ == "__main__":
    seqs = {"p1": "MKTAYIAK", "p2": "GSHMLE"}
    embs = {k: torch.from_numpy(np.random.rand(len(v), 64).astype(np.float32)) for k, v in seqs.items()}
    out = predict_all(seqs, embs)
    print({k: v.shape for k, v in out.items()})
