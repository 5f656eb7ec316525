# source: https://github.com/Lung-Yi/rxn_yield_context/issues/3
# kind: inputs_not_moved
# bug: The quick-start evaluation helper ran a model that had been moved to self.device on fingerprint tensors built on the CPU, raising a cuda/cpu mismatch in addmm; the maintainer added .to(self.device) on those inputs.
# split: test
import numpy as np
import torch
import torch.nn as nn


class ConditionRanker:
    def __init__(self, n_bits=4096, n_conditions=200):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.scorer = nn.Sequential(
            nn.Linear(n_bits, 512), nn.ReLU(), nn.Linear(512, n_conditions)
        ).to(self.device)

    def fingerprint(self, smiles):
        rng = np.random.default_rng(abs(hash(smiles)) % (2 ** 32))
        return rng.integers(0, 2, size=4096).astype(np.float32)

    def top_conditions(self, reaction_smiles, k=5):
        fps = np.stack([self.fingerprint(s) for s in reaction_smiles])
        feats = torch.from_numpy(fps)
        with torch.no_grad():
            scores = self.scorer(feats)  # bug: inputs_not_moved
        return scores.topk(k, dim=-1).indices.cpu().tolist()
