# source: https://github.com/idlrl/flare/pull/52
# also: https://github.com/idlrl/flare/commit/51ddc135313cb7472610560ab17adac53badaae1
# kind: tensor_no_device_in_forward
# bug: the continuous-action policy built its action distribution with `covariance_matrix=torch.eye(action_dims) * std`, a CPU identity matrix, while the mean came from the policy network on the GPU, so sampling actions failed once the agent ran on CUDA; the merged fix creates the identity on the input's device.
# split: test15
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, action_dims, std=0.5, hidden=128):
        super().__init__()
        self.action_dims = action_dims
        self.std = std
        self.policy_net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, action_dims))
        self.value_net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def policy(self, inputs, states):
        obs = list(inputs.values())[0]
        dist = MultivariateNormal(
            loc=self.policy_net(obs),
            covariance_matrix=torch.eye(self.action_dims) * self.std)  # bug: tensor_no_device_in_forward
        return dict(action=dist), states

    def value(self, inputs, states):
        return dict(v_value=self.value_net(list(inputs.values())[0])), states


def rollout(env_obs, steps=100):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = GaussianPolicy(obs_dim=env_obs.shape[-1], action_dims=6).to(device)
    obs = torch.as_tensor(env_obs, dtype=torch.float32, device=device)
    actions = []
    for _ in range(steps):
        dists, _ = model.policy({"sensor": obs}, None)
        actions.append(dists["action"].sample())
    return torch.stack(actions)
