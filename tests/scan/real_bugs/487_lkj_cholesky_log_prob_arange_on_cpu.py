# source: https://github.com/pytorch/pytorch/pull/73980
# kind: tensor_no_device_in_forward
# bug: the LKJ Cholesky distribution's log_prob built its exponent order vector with torch.arange(2, dim + 1) without a device, so evaluating log_prob of a CUDA sample against CUDA concentration mixed a CPU tensor in and failed; the fix passes the concentration's device to torch.arange.
# split: test23
import math

import torch
from torch.distributions import Beta, Distribution, constraints


class LKJCholeskyFactor(Distribution):
    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError("dim must be >= 2")
        self.dim = dim
        self.concentration = torch.as_tensor(concentration, dtype=torch.get_default_dtype())
        batch_shape = self.concentration.size()
        event_shape = torch.Size((dim, dim))
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        beta1 = offset + 0.5
        beta0 = marginal.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta1, beta0)
        super().__init__(batch_shape, event_shape, validate_args)

    def sample(self, sample_shape=torch.Size()):
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(-1)
        u = u / u.norm(dim=-1, keepdim=True)
        u[..., 0, :].fill_(0.0)
        w = torch.sqrt(y) * u
        diag = torch.clamp(1 - torch.sum(w ** 2, dim=-1), min=torch.finfo(w.dtype).tiny).sqrt()
        return w + torch.diag_embed(diag)

    def log_prob(self, value):
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1)  # bug: tensor_no_device_in_forward
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = torch.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalizer = pi_constant + numerator - denominator
        return unnormalized - normalizer


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    d = LKJCholeskyFactor(4, torch.tensor(2.0, device=dev))
    L = d.sample((5,))
    print(d.log_prob(L))
