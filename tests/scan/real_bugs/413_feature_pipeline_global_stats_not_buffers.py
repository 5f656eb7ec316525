# source: https://github.com/pytorch/audio/pull/2175
# kind: attribute_not_buffer
# bug: the streaming ASR feature pipeline's global-statistics normalisation module kept the loaded mean and inverse std-dev as plain tensor attributes, so moving the feature extractor to CUDA left them on the CPU and normalising GPU features mixed devices; the fix registers both as buffers.
# split: test19
import json
import math

import torch
import torchaudio


class FunctionalModule(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class GlobalStatsNorm(torch.nn.Module):
    def __init__(self, stats_path):
        super().__init__()
        with open(stats_path) as f:
            blob = json.load(f)
        self.mean = torch.tensor(blob["mean"])  # bug: attribute_not_buffer
        self.invstddev = torch.tensor(blob["invstddev"])

    def forward(self, x):
        return (x - self.mean) * self.invstddev


def piecewise_log(x):
    return torch.where(x > math.e, torch.log(x.clamp_min(math.e)), x / math.e)


def build_feature_extractor(stats_path):
    return torch.nn.Sequential(
        torchaudio.transforms.MelSpectrogram(sample_rate=16000, n_fft=400, n_mels=80, hop_length=160),
        FunctionalModule(lambda x: x.transpose(-1, -2)),
        FunctionalModule(piecewise_log),
        GlobalStatsNorm(stats_path),
    )


if __name__ == "__main__":
    with open("/tmp/global_stats.json", "w") as f:
        json.dump({"mean": [0.0] * 80, "invstddev": [1.0] * 80}, f)
    extractor = build_feature_extractor("/tmp/global_stats.json").to("cuda")
    wave = torch.randn(16000, device="cuda")
    print(extractor(wave).shape)
