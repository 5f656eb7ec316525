# source: https://github.com/Fraunhofer-IIS/prosper_nn/issues/13
# also: https://github.com/Fraunhofer-IIS/prosper_nn/commit/216001445c126d1389820db752e2601445f32e39
# kind: attribute_not_buffer
# bug: the state-space cells kept their fixed identity matrix as a plain self.eye = torch.eye(...) attribute, so moving the model to the GPU left it on the CPU; the fix registered it on the module (as a parameter with requires_grad=False).
# split: test2
import torch
import torch.nn as nn


class StateCell(nn.Module):
    def __init__(self, n_obs, n_state):
        super().__init__()
        self.transition = nn.Linear(n_state, n_state, bias=False)
        self.eye = torch.eye(n_obs, n_state)  # bug: attribute_not_buffer

    def forward(self, state, observed=None):
        expected = state @ self.eye.T
        if observed is not None:
            correction = torch.cat([observed - expected, torch.zeros_like(state[:, expected.shape[1]:])], dim=1)
            state = state - correction
        return self.transition(torch.tanh(state)), expected


class StateModel(nn.Module):
    def __init__(self, n_obs=3, n_state=10):
        super().__init__()
        self.cell = StateCell(n_obs, n_state)
        self.start = nn.Parameter(torch.zeros(1, n_state))

    def forward(self, series):
        state = self.start.expand(series.shape[1], -1)
        outs = []
        for obs in series:
            state, guess = self.cell(state, obs)
            outs.append(guess)
        return torch.stack(outs)
