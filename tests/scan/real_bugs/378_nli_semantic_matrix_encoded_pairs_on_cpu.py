# source: https://github.com/IINemo/lm-polygraph/pull/380
# also: https://github.com/IINemo/lm-polygraph/commit/997598d25f2d110ac60c431485201a783ce79377
# kind: inputs_not_moved
# bug: the uncertainty toolkit's semantic-matrix calculator scored every (greedy, sample) text pair with an NLI classifier that had been placed on the GPU, but fed it the tokenizer's freshly built CPU batch in both directions; the merged fix moves each encoded batch to the NLI model's device.
# split: test17
import itertools

import numpy as np
import torch
import torch.nn as nn


class NLIClassifier(nn.Module):
    def __init__(self, vocab=30000, dim=256, labels=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.head = nn.Linear(dim, labels)

    def forward(self, input_ids):
        return self.head(self.emb(input_ids))


def encode_pairs(pairs, max_len=64):
    ids = [[hash(w) % 30000 for w in (a + " [SEP] " + b).split()][:max_len] for a, b in pairs]
    width = max(len(x) for x in ids)
    return torch.tensor([x + [0] * (width - len(x)) for x in ids])


class NLIWrapper:
    def __init__(self, device="cuda", batch_size=16):
        self.device = device
        self.batch_size = batch_size
        self.model = NLIClassifier().to(device).eval()


def semantic_matrix(nli, greedy_texts, sample_texts, ent_id=2):
    softmax = nn.Softmax(dim=1)
    out = []
    with torch.no_grad():
        for greedy, samples in zip(greedy_texts, sample_texts):
            unique, inv = np.unique(samples, return_inverse=True)
            pairs = list(itertools.product([greedy], unique))
            probs_f, probs_b = [], []
            for i in range(0, len(pairs), nli.batch_size):
                chunk = pairs[i:i + nli.batch_size]
                encoded = encode_pairs(chunk)  # bug: inputs_not_moved
                probs_f.append(softmax(nli.model(encoded)))
                encoded = encode_pairs([(b, a) for a, b in chunk])
                probs_b.append(softmax(nli.model(encoded)))
            ent_f = torch.cat(probs_f)[:, ent_id][inv]
            ent_b = torch.cat(probs_b)[:, ent_id][inv]
            out.append(((ent_f + ent_b) / 2).cpu().numpy())
    return np.stack(out)


if __name__ == "__main__":
    nli = NLIWrapper(device="cuda" if torch.cuda.is_available() else "cpu")
    print(semantic_matrix(nli, ["paris is the capital"], [["paris", "it is paris", "lyon"]]).shape)
