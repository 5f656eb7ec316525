# source: https://github.com/bayesiains/nflows/pull/9
# also: https://github.com/bayesiains/nflows/commit/cacf905707e9e958da51c89221c185aa23d32a41
# kind: cpu_accumulator
# bug: the multi-scale composite flow summed the log-determinants of its stages into `total_logabsdet = torch.zeros(batch_size)` (no device) in both `forward` and `inverse`, then added each stage's CUDA log-determinant into it in place, so density evaluation and sampling failed once the flow was on the GPU (reported for GPU sampling in #8); the PR creates the accumulators with `inputs.new_zeros(batch_size)`.
# split: test12
import numpy as np
import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, channels, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(channels // 2, hidden, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(hidden, channels, 3, padding=1))

    def forward(self, x, context=None):
        a, b = x.chunk(2, dim=1)
        log_s, t = self.net(a).chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        return torch.cat([a, b * log_s.exp() + t], dim=1), log_s.flatten(1).sum(1)

    def inverse(self, y, context=None):
        a, b = y.chunk(2, dim=1)
        log_s, t = self.net(a).chunk(2, dim=1)
        log_s = torch.tanh(log_s)
        return torch.cat([a, (b - t) * (-log_s).exp()], dim=1), -log_s.flatten(1).sum(1)


class MultiscaleFlow(nn.Module):
    def __init__(self, stages, output_shapes, split_dim=1):
        super().__init__()
        self.stages = nn.ModuleList(stages)
        self.output_shapes = output_shapes
        self.split_dim = split_dim

    def forward(self, inputs, context=None):
        batch_size = inputs.shape[0]
        all_outputs = []
        total_logabsdet = torch.zeros(batch_size)  # bug: cpu_accumulator
        hiddens = inputs
        for i, stage in enumerate(self.stages):
            out, logabsdet = stage(hiddens, context)
            if i < len(self.stages) - 1:
                out, hiddens = torch.chunk(out, 2, dim=self.split_dim)
            all_outputs.append(out.reshape(batch_size, -1))
            total_logabsdet += logabsdet
        return torch.cat(all_outputs, dim=-1), total_logabsdet

    def inverse(self, inputs, context=None):
        batch_size = inputs.shape[0]
        split = np.insert(np.cumsum([np.prod(s) for s in self.output_shapes]), 0, 0)
        chunks = [inputs[:, split[i]:split[i + 1]].view(-1, *s) for i, s in enumerate(self.output_shapes)]
        total_logabsdet = inputs.new_zeros(batch_size)
        hiddens, logabsdet = self.stages[-1].inverse(chunks[-1], context)
        total_logabsdet += logabsdet
        for stage, chunk in zip(list(self.stages)[-2::-1], chunks[-2::-1]):
            hiddens, logabsdet = stage.inverse(torch.cat([chunk, hiddens], dim=self.split_dim), context)
            total_logabsdet += logabsdet
        return hiddens, total_logabsdet


if __name__ == "__main__":
    flow = MultiscaleFlow([AffineCoupling(8), AffineCoupling(4)], [(4, 16, 16), (4, 16, 16)]).cuda()
    z, logdet = flow(torch.randn(16, 8, 16, 16, device="cuda"))
    print(z.shape, logdet.shape)
