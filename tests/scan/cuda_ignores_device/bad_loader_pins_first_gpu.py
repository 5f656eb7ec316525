# A speech wrapper that takes a device and builds its buffers there, but loads its base model with a
# literal "cuda:0": asked for cuda:1, the weights and the buffers end up on two GPUs.
import torch
from torch import nn


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(256, 32)

    @classmethod
    def from_pretrained(cls, name, device_map="cpu"):
        return cls().to(device_map)


class Speaker:
    def __init__(self, base, buffer):
        self.base = base
        self.buffer = buffer

    @classmethod
    def load(cls, name, device="cuda"):
        base = Base.from_pretrained(name, device_map="cuda:0")  # expect: code.cuda_ignores_device=warning
        buffer = torch.zeros(1, 64, dtype=torch.long, device=device)
        return cls(base, buffer)
