# source: https://github.com/zhengxxn/adaptive-knn-mt/pull/9
# kind: per_step_host_alloc
# bug: The kNN datastore built zero tensors on the host with torch.zeros(...).to(queries.device) on every decoding step; creating them directly with device= made kNN-MT inference several times faster.
# split: test
import torch


class KnnStore:
    def __init__(self, keys, vals, k=8, temperature=10.0):
        self.keys = keys
        self.vals = vals
        self.k = k
        self.t = temperature

    def lookup(self, queries, vocab_size):
        d = torch.cdist(queries, self.keys)
        dist, idx = d.topk(self.k, dim=-1, largest=False)
        tgt = self.vals[idx]
        weights = torch.softmax(-dist / self.t, dim=-1)
        probs = torch.zeros(queries.shape[0], vocab_size).to(queries.device)  # bug: per_step_host_alloc
        probs.scatter_add_(1, tgt, weights)
        return probs


def decode(store, step_queries, vocab_size):
    out = []
    for q in step_queries:
        out.append(store.lookup(q, vocab_size).argmax(-1))
    return out
