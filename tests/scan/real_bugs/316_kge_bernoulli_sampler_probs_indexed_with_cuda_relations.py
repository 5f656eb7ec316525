# source: https://github.com/torchkge-team/torchkge/pull/246
# also: https://github.com/torchkge-team/torchkge/commit/d56e9d81101a61d6f2330098d784e87f7a71ce96
# kind: other
# bug: the Bernoulli negative sampler computed its per-relation corruption probabilities once, as a CPU tensor, but `corrupt_batch` indexed them with the batch's relation ids, which are on CUDA when the knowledge graph is trained on the GPU, so sampling failed with "indices should be either on cpu or on the same device"; the merged fix moves `bern_probs` to the batch's device before indexing.
# split: test14
from collections import defaultdict

import torch
from torch import bernoulli, randint, tensor


class BernoulliCorruptor:
    def __init__(self, heads, tails, relations, n_ent, n_rel, n_neg=1):
        self.n_ent, self.n_rel, self.n_neg = n_ent, n_rel, n_neg
        self.bern_probs = self._probabilities(heads.tolist(), tails.tolist(), relations.tolist())

    def _probabilities(self, heads, tails, relations):
        tails_per_head = defaultdict(set)
        heads_per_tail = defaultdict(set)
        for h, t, r in zip(heads, tails, relations):
            tails_per_head[(r, h)].add(t)
            heads_per_tail[(r, t)].add(h)
        probs = []
        for r in range(self.n_rel):
            tph = [len(v) for (rr, _), v in tails_per_head.items() if rr == r]
            hpt = [len(v) for (rr, _), v in heads_per_tail.items() if rr == r]
            if not tph:
                probs.append(0.5)
                continue
            a, b = sum(tph) / len(tph), sum(hpt) / len(hpt)
            probs.append(a / (a + b))
        return tensor(probs).float()

    def corrupt_batch(self, heads, tails, relations):
        device = heads.device
        batch_size = heads.shape[0]
        neg_heads = heads.repeat(self.n_neg)
        neg_tails = tails.repeat(self.n_neg)
        mask = bernoulli(self.bern_probs[relations].repeat(self.n_neg)).double()  # bug: other
        n_h_cor = int(mask.sum().item())
        neg_heads[mask == 1] = randint(1, self.n_ent, (n_h_cor,), device=device)
        neg_tails[mask == 0] = randint(1, self.n_ent, (batch_size * self.n_neg - n_h_cor,), device=device)
        return neg_heads.long(), neg_tails.long()


if __name__ == "__main__":
    device = torch.device("cuda")
    h, t, r = randint(0, 500, (4000,)), randint(0, 500, (4000,)), randint(0, 20, (4000,))
    sampler = BernoulliCorruptor(h, t, r, n_ent=500, n_rel=20)
    ent_emb = torch.nn.Embedding(500, 64).to(device)
    for start in range(0, 4000, 512):
        bh, bt, br = h[start:start + 512].to(device), t[start:start + 512].to(device), r[start:start + 512].to(device)
        nh, nt = sampler.corrupt_batch(bh, bt, br)
        loss = (ent_emb(bh) - ent_emb(nh)).norm(dim=-1).mean()
