# source: https://github.com/skorch-dev/skorch/issues/21
# also: https://github.com/skorch-dev/skorch/pull/26
# kind: model_not_moved
# bug: The sklearn-style wrapper honoured use_cuda for the data but never moved the instantiated module to the GPU, so CUDA batches met CPU weights; the fix calls .cuda() on the module when it is initialized with use_cuda=True.
# split: test
import torch
import torch.nn as nn


class TorchEstimator:
    def __init__(self, module_cls, use_cuda=False, lr=0.01, **module_kwargs):
        self.module_cls = module_cls
        self.use_cuda = use_cuda
        self.lr = lr
        self.module_kwargs = module_kwargs

    def initialize(self):
        self.module_ = self.module_cls(**self.module_kwargs)  # bug: model_not_moved
        self.optimizer_ = torch.optim.SGD(self.module_.parameters(), lr=self.lr)
        return self

    def train_step(self, xb, yb):
        if self.use_cuda:
            xb, yb = xb.cuda(), yb.cuda()
        self.optimizer_.zero_grad()
        loss = nn.functional.cross_entropy(self.module_(xb), yb)
        loss.backward()
        self.optimizer_.step()
        return loss.item()

    def fit(self, batches, epochs=1):
        self.initialize()
        for _ in range(epochs):
            for xb, yb in batches:
                self.train_step(xb, yb)
        return self
