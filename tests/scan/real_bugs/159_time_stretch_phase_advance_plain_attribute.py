# source: https://github.com/pytorch/audio/pull/457
# also: https://github.com/pytorch/audio/pull/456
# kind: attribute_not_buffer
# bug: the TimeStretch transform kept its precomputed phase_advance tensor as a plain attribute, so TimeStretch().cuda() left it on the CPU and stretching a CUDA spectrogram failed with "expected device cuda:0 but got device cpu"; the fix registers it with register_buffer.
# split: test5
import math

import torch
import torch.nn as nn


def phase_vocoder(spec, rate, phase_advance):
    steps = torch.arange(0, spec.size(-2), rate, device=spec.device, dtype=spec.dtype)
    phase_0 = torch.angle(spec[..., :1, :])
    spec = nn.functional.pad(spec, [0, 0, 0, 2])
    idx = steps.long()
    frame0 = spec[..., idx, :]
    frame1 = spec[..., idx + 1, :]
    dphase = torch.angle(frame1) - torch.angle(frame0) - phase_advance
    dphase = dphase - 2 * math.pi * torch.round(dphase / (2 * math.pi))
    acc = torch.cumsum(dphase + phase_advance, dim=-2)
    phase = torch.cat([phase_0, acc[..., :-1, :]], dim=-2)
    mag = torch.lerp(frame0.abs(), frame1.abs(), steps.frac().unsqueeze(-1))
    return torch.polar(mag, phase)


class TimeStretch(nn.Module):
    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        super().__init__()
        self.fixed_rate = fixed_rate
        n_fft = (n_freq - 1) * 2
        hop = hop_length if hop_length is not None else n_fft // 2
        self.phase_advance = torch.linspace(0, math.pi * hop, n_freq)[None, :]  # bug: attribute_not_buffer

    def forward(self, spec, rate=None):
        rate = self.fixed_rate if rate is None else rate
        if rate == 1.0:
            return spec
        spec = spec.transpose(-1, -2)
        return phase_vocoder(spec, rate, self.phase_advance).transpose(-1, -2)


if __name__ == "__main__":
    stretch = TimeStretch(fixed_rate=1.3).cuda()
    out = stretch(torch.randn(1, 2, 201, 400, dtype=torch.cfloat).cuda())
