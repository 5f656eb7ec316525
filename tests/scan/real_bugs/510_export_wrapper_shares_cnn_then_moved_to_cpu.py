# source: https://github.com/leggedrobotics/rsl_rl/pull/189
# kind: other
# bug: the TorchScript/ONNX export wrappers of the CNN policy deep-copied the observation normaliser and the MLP head but put the original CNN encoder modules straight into their ModuleList, so when the runner moved the export wrapper to the CPU (jit_model.to("cpu")) it also moved the live training policy's CNN weights off the GPU and the next training forward pass hit a device mismatch; the fix deep-copies the CNN modules into the wrappers.
# split: test24
import copy
import os

import torch
import torch.nn as nn


class CNNPolicy(nn.Module):
    def __init__(self, obs_dim=16, groups=("depth",), channels=1, latent=32, actions=4):
        super().__init__()
        self.obs_groups_2d = list(groups)
        self.obs_normalizer = nn.Identity()
        self.cnns = nn.ModuleDict({
            g: nn.Sequential(nn.Conv2d(channels, 8, 3, stride=2), nn.ReLU(),
                             nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(32, latent))
            for g in self.obs_groups_2d
        })
        self.mlp = nn.Sequential(nn.Linear(obs_dim + latent * len(groups), 64), nn.ELU(), nn.Linear(64, actions))

    def forward(self, obs_1d, obs_2d):
        feats = [self.cnns[g](obs_2d[i]) for i, g in enumerate(self.obs_groups_2d)]
        return self.mlp(torch.cat([self.obs_normalizer(obs_1d)] + feats, dim=-1))

    def as_jit(self):
        return ExportCNNPolicy(self)


class ExportCNNPolicy(nn.Module):
    def __init__(self, model: CNNPolicy):
        super().__init__()
        self.obs_normalizer = copy.deepcopy(model.obs_normalizer)
        self.cnns = nn.ModuleList([model.cnns[g] for g in model.obs_groups_2d])  # bug: other
        self.mlp = copy.deepcopy(model.mlp)

    def forward(self, obs_1d: torch.Tensor, obs_2d: list[torch.Tensor]) -> torch.Tensor:
        feats = [cnn(obs_2d[i]) for i, cnn in enumerate(self.cnns)]
        return self.mlp(torch.cat([self.obs_normalizer(obs_1d)] + feats, dim=-1))


def export_policy_to_jit(policy: CNNPolicy, path: str, filename: str = "policy.pt"):
    jit_model = policy.as_jit()
    jit_model.to("cpu")
    os.makedirs(path, exist_ok=True)
    torch.jit.script(jit_model).save(os.path.join(path, filename))


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    policy = CNNPolicy().to(dev)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-3)
    for it in range(3):
        obs_1d = torch.randn(8, 16, device=dev)
        obs_2d = [torch.randn(8, 1, 16, 16, device=dev)]
        loss = policy(obs_1d, obs_2d).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        export_policy_to_jit(policy, "./exported")
