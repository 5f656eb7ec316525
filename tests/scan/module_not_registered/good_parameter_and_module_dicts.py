# The same modules with nn.ParameterDict and nn.ModuleDict, and a plain dict of names (no layers).
import torch
from torch import nn
from torch.nn import Parameter


class TypedGate(nn.Module):
    def __init__(self, channels_by_type, out_channels):
        super().__init__()
        self.channels_by_type = channels_by_type
        self.weight = nn.ParameterDict(self._per_type(lambda c: (c, out_channels)))

    def _per_type(self, shape_of):
        return nn.ParameterDict({t: Parameter(torch.empty(*shape_of(c))) for t, c in self.channels_by_type.items()})


class ModeEncoders(nn.Module):
    def __init__(self, n_train, n_eval, dim):
        super().__init__()
        self.by_mode = nn.ModuleDict({"train": nn.Embedding(n_train, dim)})
        self.by_mode["eval"] = nn.Embedding(n_eval, dim)
        self.labels = {"train": "training set"}
        self.labels["eval"] = "held-out set"

    def forward(self, ids, mode="train"):
        return self.by_mode[mode](ids)
