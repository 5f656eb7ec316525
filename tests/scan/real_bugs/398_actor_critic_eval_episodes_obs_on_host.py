# source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/issues/117
# also: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/pull/118
# kind: eval_batch_not_moved
# bug: the vectorised-env wrapper returned observations as CPU tensors; training copied them into a rollout buffer that lived on the GPU, but the newly added evaluation loop fed the observations from the evaluation envs straight into the CUDA actor-critic; the fix makes the wrapper move observations to the device on reset/step.
# split: test18
import numpy as np
import torch
import torch.nn as nn


class VecTorchEnv:
    def __init__(self, n=4, obs_dim=8):
        self.n, self.obs_dim = n, obs_dim

    def reset(self):
        return torch.from_numpy(np.random.randn(self.n, self.obs_dim)).float()

    def step(self, actions):
        obs = torch.from_numpy(np.random.randn(self.n, self.obs_dim)).float()
        reward = torch.ones(self.n, 1)
        done = np.random.rand(self.n) < 0.05
        return obs, reward, done, [{"episode": {"r": 1.0}} if d else {} for d in done]


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=8, n_actions=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def act(self, obs, deterministic=False):
        h = self.body(obs)
        logits = self.pi(h)
        a = logits.argmax(-1) if deterministic else torch.distributions.Categorical(logits=logits).sample()
        return self.v(h), a


class Rollouts:
    def __init__(self, steps, n, obs_dim):
        self.obs = torch.zeros(steps + 1, n, obs_dim)

    def to(self, device):
        self.obs = self.obs.to(device)


def main(updates=10, steps=5, device=torch.device("cuda")):
    envs = VecTorchEnv()
    policy = ActorCritic().to(device)
    rollouts = Rollouts(steps, envs.n, envs.obs_dim)
    rollouts.obs[0].copy_(envs.reset())
    rollouts.to(device)
    for j in range(updates):
        for s in range(steps):
            with torch.no_grad():
                _, action = policy.act(rollouts.obs[s])
            obs, reward, done, _ = envs.step(action)
            rollouts.obs[s + 1].copy_(obs)

        if j % 5 == 0:
            eval_envs = VecTorchEnv()
            rewards = []
            obs = eval_envs.reset()
            while len(rewards) < 10:
                with torch.no_grad():
                    _, action = policy.act(obs, deterministic=True)  # bug: eval_batch_not_moved
                obs, _, done, infos = eval_envs.step(action)
                rewards += [i["episode"]["r"] for i in infos if "episode" in i]
            print("eval mean reward", np.mean(rewards))
