# Per-type gate weights built as a dict of nn.Parameter by a helper, and an encoder stored into a
# plain dict after __init__ made it: none of them is registered.
import torch
from torch import nn
from torch.nn import Parameter


class TypedGate(nn.Module):
    def __init__(self, channels_by_type, out_channels):
        super().__init__()
        self.channels_by_type = channels_by_type
        self.weight = self._per_type(lambda c: (c, out_channels))

    def _per_type(self, shape_of):
        return {t: Parameter(torch.empty(*shape_of(c))) for t, c in self.channels_by_type.items()}  # expect: code.module_not_registered


class ModeEncoders(nn.Module):
    def __init__(self, n_train, n_eval, dim):
        super().__init__()
        self.train_encoder = nn.Embedding(n_train, dim)
        self.by_mode = {"train": self.train_encoder}  # expect: code.module_not_registered
        self.by_mode["eval"] = eval_encoder = nn.Embedding(n_eval, dim)
        self.default = eval_encoder

    def forward(self, ids, mode="train"):
        return self.by_mode[mode](ids)
