# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/18
# also: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/commit/5127865309fe6028e327868b21c5436a6c2f1419
# kind: tensor_no_device_in_forward
# bug: when no initial hidden state was passed, the diffusion-convolution recurrent layer created it with torch.zeros(num_nodes, channels) on the CPU, which then met CUDA node features; the fix put the zeros on the features' device.
# split: test2
import torch
import torch.nn as nn


class NodeGRU(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.out_dim = out_dim
        self.update = nn.Linear(in_dim + out_dim, out_dim)
        self.reset = nn.Linear(in_dim + out_dim, out_dim)
        self.cand = nn.Linear(in_dim + out_dim, out_dim)

    def _initial_state(self, feats, state):
        if state is None:
            state = torch.zeros(feats.shape[0], self.out_dim)  # bug: tensor_no_device_in_forward
        return state

    def forward(self, feats, state=None):
        state = self._initial_state(feats, state)
        both = torch.cat([feats, state], dim=1)
        z = torch.sigmoid(self.update(both))
        r = torch.sigmoid(self.reset(both))
        h_new = torch.tanh(self.cand(torch.cat([feats, r * state], dim=1)))
        return z * state + (1 - z) * h_new
