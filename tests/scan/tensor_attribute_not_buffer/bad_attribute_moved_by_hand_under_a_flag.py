# Normalisation statistics kept as plain attributes and sent to the GPU by hand when a config flag
# says so: model.to(), .cpu() and state_dict() all leave them out.
import torch
from torch import nn


class Regressor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.mean = torch.tensor(cfg.mean)  # expect: code.tensor_attribute_not_buffer
        if cfg.use_gpu:
            self.mean = self.mean.cuda()
        self.head = nn.Linear(cfg.hidden, len(cfg.mean))

    def forward(self, x):
        return self.head(x) + self.mean
