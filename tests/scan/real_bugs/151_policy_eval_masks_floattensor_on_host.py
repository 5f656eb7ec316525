# source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/pull/165
# also: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/commit/89f7d3f0d84f420412285573102d04d355564a65
# kind: eval_batch_not_moved
# bug: during training the done-masks were copied into the rollout storage on the device, but the evaluation loop rebuilt its masks with torch.FloatTensor(...) on the CPU and fed them to the CUDA actor-critic; the fix builds them with torch.tensor(..., device=device).
# split: test5
import torch


class Rollouts:
    def __init__(self, steps, procs, device):
        self.masks = torch.ones(steps + 1, procs, 1, device=device)
        self.step = 0

    def insert(self, masks):
        self.masks[self.step + 1].copy_(masks)
        self.step = (self.step + 1) % (self.masks.shape[0] - 1)


def train_and_evaluate(policy, envs, eval_envs, num_steps, procs, device, updates=10):
    rollouts = Rollouts(num_steps, procs, device)
    obs = envs.reset()
    for _ in range(updates):
        for step in range(num_steps):
            with torch.no_grad():
                action = policy.act(obs, rollouts.masks[step])
            obs, reward, done, infos = envs.step(action)
            masks = torch.FloatTensor([[0.0] if d else [1.0] for d in done])
            rollouts.insert(masks)

    returns = []
    obs = eval_envs.reset()
    eval_masks = torch.zeros(procs, 1, device=device)
    while len(returns) < 10:
        with torch.no_grad():
            action = policy.act(obs, eval_masks, deterministic=True)
        obs, reward, done, infos = eval_envs.step(action)
        eval_masks = torch.FloatTensor([[0.0] if d else [1.0] for d in done])  # bug: eval_batch_not_moved
        for info in infos:
            if "episode" in info:
                returns.append(info["episode"]["r"])
    return sum(returns) / len(returns)
