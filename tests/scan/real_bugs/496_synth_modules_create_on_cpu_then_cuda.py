# source: https://github.com/torchsynth/torchsynth/issues/76
# kind: per_step_host_alloc
# bug: the synth modules built their per-batch signals and control tensors with torch factory calls on the CPU and then moved them with .cuda() (or .to(device)) on every render, paying a host allocation plus host-to-device copy each batch; the fix creates the tensors directly on the target device.
# split: test23
import math

import torch
import torch.nn as nn


class SynthConfig:
    def __init__(self, batch_size=64, sample_rate=44100, buffer_size_seconds=4.0, device="cuda"):
        self.batch_size = batch_size
        self.sample_rate = sample_rate
        self.buffer_size = int(sample_rate * buffer_size_seconds)
        self.device = torch.device(device)


class SynthModule(nn.Module):
    def __init__(self, cfg: SynthConfig):
        super().__init__()
        self.cfg = cfg

    def random_param(self, low, high):
        u = torch.rand(self.cfg.batch_size, 1, device=self.cfg.device)
        return low + (high - low) * u


class SineVCO(SynthModule):
    def output(self, midi_f0, mod):
        f0 = 440.0 * 2 ** ((midi_f0 - 69.0) / 12.0)
        t = torch.arange(self.cfg.buffer_size, dtype=torch.float32, device=self.cfg.device)
        phase = 2 * math.pi * f0 * t / self.cfg.sample_rate
        return torch.sin(phase + mod)


class Noise(SynthModule):
    def output(self):
        return torch.rand(self.cfg.batch_size, self.cfg.buffer_size).cuda() * 2 - 1  # bug: per_step_host_alloc


class ADSR(SynthModule):
    def output(self, attack, release):
        t = torch.linspace(0, 1, self.cfg.buffer_size, device=self.cfg.device)
        env = torch.clamp(t / attack, max=1.0) * torch.clamp((1 - t) / release, max=1.0)
        return env


class Voice(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.vco = SineVCO(cfg)
        self.noise = Noise(cfg)
        self.adsr = ADSR(cfg)

    def forward(self):
        pitch = self.vco.random_param(40.0, 80.0)
        mix = self.vco.random_param(0.0, 0.3)
        attack = self.adsr.random_param(0.01, 0.3)
        release = self.adsr.random_param(0.01, 0.5)
        tone = self.vco.output(pitch, 0.0)
        audio = (1 - mix) * tone + mix * self.noise.output()
        return audio * self.adsr.output(attack, release)


if __name__ == "__main__":
    voice = Voice(SynthConfig(device="cuda"))
    for _ in range(100):
        batch = voice()
    print(batch.shape)
