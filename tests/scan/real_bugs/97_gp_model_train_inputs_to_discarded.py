# source: https://github.com/facebookresearch/aepsych/pull/672
# also: https://github.com/facebookresearch/aepsych/commit/f63f4dd0be977db9a4d2609b3dfebb5e347c35d1
# kind: to_result_discarded
# bug: the GP model mixin's train_inputs getter and setter looped over the input tensors calling input.to(self.device) "in place", but Tensor.to returns a new tensor, so the stored inputs stayed on their old device while the targets (which were reassigned) followed the model; the fix stores tuple(input.to(self.device) for ...).
# split: test2
from typing import Optional, Tuple

import gpytorch
import torch


class DeviceAwareGP(gpytorch.models.ExactGP):
    def __init__(self, likelihood):
        super().__init__(None, None, likelihood)
        self.mean = gpytorch.means.ConstantMean()
        self.kernel = gpytorch.kernels.ScaleKernel(gpytorch.kernels.RBFKernel())
        self._inputs: Optional[Tuple[torch.Tensor, ...]] = None
        self._targets: Optional[torch.Tensor] = None

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    @property
    def train_inputs(self):
        if self._inputs is None:
            return None
        for t in self._inputs:
            t.to(self.device)  # bug: to_result_discarded
        return self._inputs

    @train_inputs.setter
    def train_inputs(self, value):
        if value is not None:
            for t in value:
                t.to(self.device)  # bug: to_result_discarded
        self._inputs = value

    @property
    def train_targets(self):
        if self._targets is not None:
            self._targets = self._targets.to(self.device)
        return self._targets

    @train_targets.setter
    def train_targets(self, value):
        self._targets = None if value is None else value.to(self.device)

    def forward(self, x):
        return gpytorch.distributions.MultivariateNormal(self.mean(x), self.kernel(x))


if __name__ == "__main__":
    gp = DeviceAwareGP(gpytorch.likelihoods.GaussianLikelihood())
    gp.train_inputs = (torch.rand(20, 2),)
    gp.train_targets = torch.rand(20)
    gp.cuda()
    gp.train()
    print(gp(*gp.train_inputs).mean)
