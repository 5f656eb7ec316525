# A features extractor derived from a library's base class (not nn.Module by name): it has forward()
# and builds torch layers in __init__, so it is a module, and the head it builds in forward() is a
# fresh, untrained stack of layers on the CPU at every call. Reported once, at the container.
import torch
from torch import nn
from rl_library.layers import BaseExtractor


class DictExtractor(BaseExtractor):
    def __init__(self, space, features_dim=64):
        super().__init__(space, features_dim)
        self.encoders = nn.ModuleDict({k: nn.Linear(4, 16) for k in space})

    def forward(self, obs):
        cat = torch.cat([self.encoders[k](obs[k]) for k in self.encoders], dim=1)
        self.head = nn.Sequential(  # expect: code.module_built_in_forward
            nn.Linear(cat.shape[1], 64),
            nn.Tanh(),
            nn.Linear(64, 64),
        )
        return self.head(cat)
