# source: https://github.com/knodle/knodle/pull/292
# also: https://github.com/knodle/knodle/commit/fa871ffce0d0b7f91c84e93690dfdd10cf91f3eb
# kind: model_not_moved
# bug: the weak-supervision cross-weighing trainer kept a deepcopy of the initial model as a template and scored each hold-out fold with it, while _load_batch moved every batch to trainer_config.device; the template was never moved, so CUDA runs crashed in the fold test; the fix copies it with .to(trainer_config.device).
# split: test2
import copy

import torch
from torch.utils.data import DataLoader


class CrossWeighCalculator:
    def __init__(self, model, config, folds):
        self.config = config
        self.model = model
        self.folds = folds
        self.template = copy.deepcopy(self.model)  # bug: model_not_moved
        self.weights = None

    def _load_batch(self, batch):
        feats = [t.to(self.config.device) for t in batch[:-1]]
        return feats, batch[-1].to(self.config.device)

    def _train(self, loader):
        opt = torch.optim.Adam(self.model.parameters(), lr=self.config.lr)
        for batch in loader:
            feats, labels = self._load_batch(batch)
            loss = torch.nn.functional.cross_entropy(self.model(*feats[:-1]), labels.argmax(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()

    @torch.no_grad()
    def _score_fold(self, loader):
        self.template.eval()
        for batch in loader:
            feats, labels = self._load_batch(batch)
            inputs, idx = feats[:-1], feats[-1]
            guess = self.template(*inputs).argmax(-1)
            wrong = guess != labels.argmax(-1)
            self.weights[idx[wrong].cpu()] *= self.config.reduce_rate

    def calculate(self, n_samples):
        self.weights = torch.ones(n_samples)
        for train_set, test_set in self.folds:
            self.model = copy.deepcopy(self.template).to(self.config.device)
            self._train(DataLoader(train_set, batch_size=32, shuffle=True))
            self._score_fold(DataLoader(test_set, batch_size=32))
        return self.weights
