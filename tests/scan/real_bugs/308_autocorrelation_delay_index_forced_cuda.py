# source: https://github.com/thuml/Autoformer/pull/66
# also: https://github.com/thuml/Autoformer/commit/a431ab6a8f794d40fc2babd60cd78a6b74946a94
# kind: other
# bug: the auto-correlation attention built its delay index grid in the inference/full aggregation with `torch.arange(length)...repeat(...).cuda()`, forcing the default GPU instead of the device of `values`, so the forecaster crashed when trained or evaluated on the CPU (issue #63) and would pick the wrong card on `cuda:1`; the merged fix uses `.to(values.device)`.
# split: test14
import math

import torch
import torch.nn as nn


class AutoCorrelation(nn.Module):
    def __init__(self, factor=1, attention_dropout=0.1):
        super().__init__()
        self.factor = factor
        self.dropout = nn.Dropout(attention_dropout)

    def aggregate_training(self, values, corr):
        head, channel, length = values.shape[1:]
        top_k = int(self.factor * math.log(length))
        mean_value = corr.mean(dim=1).mean(dim=1)
        index = torch.topk(mean_value.mean(dim=0), top_k, dim=-1)[1]
        weights = torch.softmax(torch.stack([mean_value[:, index[i]] for i in range(top_k)], dim=-1), dim=-1)
        agg = torch.zeros_like(values)
        for i in range(top_k):
            agg = agg + torch.roll(values, -int(index[i]), -1) * weights[:, i].view(-1, 1, 1, 1)
        return agg

    def aggregate_full(self, values, corr):
        batch, head, channel, length = values.shape
        init_index = torch.arange(length).view(1, 1, 1, -1).repeat(batch, head, channel, 1).cuda()  # bug: other
        top_k = int(self.factor * math.log(length))
        weights, delay = torch.topk(corr, top_k, dim=-1)
        weights = torch.softmax(weights, dim=-1)
        doubled = values.repeat(1, 1, 1, 2)
        agg = torch.zeros_like(values)
        for i in range(top_k):
            pattern = torch.gather(doubled, dim=-1, index=init_index + delay[..., i].unsqueeze(-1))
            agg = agg + pattern * weights[..., i].unsqueeze(-1)
        return agg

    def forward(self, queries, keys, values):
        L = queries.shape[1]
        values, keys = values[:, :L], keys[:, :L]
        q_fft = torch.fft.rfft(queries.permute(0, 2, 3, 1).contiguous(), dim=-1)
        k_fft = torch.fft.rfft(keys.permute(0, 2, 3, 1).contiguous(), dim=-1)
        corr = torch.fft.irfft(q_fft * torch.conj(k_fft), dim=-1)
        v = values.permute(0, 2, 3, 1).contiguous()
        out = self.aggregate_training(v, corr) if self.training else self.aggregate_full(v, corr)
        return out.permute(0, 3, 1, 2)


if __name__ == "__main__":
    device = torch.device("cpu")
    layer = AutoCorrelation().to(device).eval()
    q = torch.randn(8, 96, 8, 64, device=device)
    print(layer(q, q, q).shape)
