# source: https://github.com/hand10ryo/PyTorchCML/pull/16
# also: https://github.com/hand10ryo/PyTorchCML/commit/f51e3d486cb9b5e7bac5fb8e14434034d67d05ce
# kind: inputs_not_moved
# bug: with `strict_negative=True`, the two-stage negative sampler built the users' positive-item mask from a scipy matrix with `torch.Tensor(...)` on the CPU, indexed it with the candidate items drawn on the training device and multiplied it with the on-device candidate weights, so GPU training failed; the fix moves the indexed mask to `self.device`.
# split: test12
import numpy as np
import torch
from scipy.sparse import csr_matrix
from torch.distributions.categorical import Categorical


class TwoStageNegativeSampler:
    def __init__(self, train_pairs, n_user, n_item, device="cuda", batch_size=256,
                 n_neg_samples=10, n_candidates=200, strict_negative=True):
        self.device = torch.device(device)
        self.batch_size = batch_size
        self.n_neg_samples = n_neg_samples
        self.n_candidates = n_candidates
        self.strict_negative = strict_negative
        self.train_set = torch.as_tensor(train_pairs, device=self.device)
        ones = np.ones(len(train_pairs))
        self.positive_flags = csr_matrix((ones, (train_pairs[:, 0], train_pairs[:, 1])), shape=(n_user, n_item))
        popularity = np.asarray(self.positive_flags.sum(axis=0)).ravel() + 1.0
        self.item_weight = torch.as_tensor(popularity / popularity.sum(), device=self.device)
        self.pos_sampler = Categorical(probs=torch.ones(len(train_pairs), device=self.device))
        self.candidate_sampler = Categorical(probs=self.item_weight)

    def get_pos_batch(self):
        return self.train_set[self.pos_sampler.sample([self.batch_size])]

    def get_and_set_candidates(self):
        self.candidates = self.candidate_sampler.sample([self.n_candidates])
        return self.candidates

    def set_candidates_weight(self, dist, dim):
        beta = torch.distributions.Beta((dim - 1) / 2, 0.5).sample([1]).to(self.device)
        mask = (dist > 0) & (dist < 0.99)
        log_w = (1 - (dim - 1) / 2) * torch.log(1 - dist.square()) + torch.log(beta)
        self.candidates_weight = torch.exp(log_w)
        self.candidates_weight[~mask] = 0
        self.candidates_weight[self.candidates_weight.sum(dim=1) == 0] = 1

    def get_neg_batch(self, users):
        if self.strict_negative:
            pos_item_mask = torch.Tensor(self.positive_flags[users.to("cpu").numpy()].toarray())
            pos_item_mask_candidate = pos_item_mask[:, self.candidates]  # bug: inputs_not_moved
            weight = (1 - pos_item_mask_candidate) * self.candidates_weight
            weight[weight.sum(dim=1) <= 1e-10] = 1
        else:
            weight = self.candidates_weight
        neg_indices = Categorical(probs=weight).sample([self.n_neg_samples]).T
        return self.candidates[neg_indices]
