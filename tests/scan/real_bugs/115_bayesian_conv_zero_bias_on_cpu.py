# source: https://github.com/piEsposito/blitz-bayesian-deep-learning/pull/71
# also: https://github.com/piEsposito/blitz-bayesian-deep-learning/commit/eed5163e1c52e55712c9023fd8e206e7fbd20c95
# kind: tensor_no_device_in_forward
# bug: when a Bayesian conv layer was built with bias=False, forward substituted `torch.zeros(out_channels)` made on the CPU for the bias and passed it to F.conv1d with CUDA weights and inputs; the merged PR registers the zero bias as a buffer in __init__.
# split: test3
import torch
import torch.nn as nn
import torch.nn.functional as F


class BayesConv1d(nn.Module):
    def __init__(self, in_ch, out_ch, kernel, bias=True):
        super().__init__()
        self.out_ch = out_ch
        self.use_bias = bias
        self.w_mu = nn.Parameter(torch.randn(out_ch, in_ch, kernel) * 0.1)
        self.w_rho = nn.Parameter(torch.full((out_ch, in_ch, kernel), -5.0))
        if bias:
            self.b_mu = nn.Parameter(torch.zeros(out_ch))
            self.b_rho = nn.Parameter(torch.full((out_ch,), -5.0))

    @staticmethod
    def _sample(mu, rho):
        return mu + torch.log1p(torch.exp(rho)) * torch.randn_like(mu)

    def forward(self, x):
        w = self._sample(self.w_mu, self.w_rho)
        if self.use_bias:
            b = self._sample(self.b_mu, self.b_rho)
        else:
            b = torch.zeros(self.out_ch)  # bug: tensor_no_device_in_forward
        return F.conv1d(x, w, b, padding=1)


if __name__ == "__main__":
    layer = BayesConv1d(4, 8, 3, bias=False).cuda()
    print(layer(torch.randn(2, 4, 50, device="cuda")).shape)
