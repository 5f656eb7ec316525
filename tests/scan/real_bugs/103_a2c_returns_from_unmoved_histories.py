# source: https://github.com/activatedgeek/torchrl/pull/49
# also: https://github.com/activatedgeek/torchrl/commit/450491e302af160633264c4204e6d784a8dc749b
# kind: inputs_not_moved
# bug: the A2C problem moved the merged rollout batch to self.device for learn(), but computed the GAE returns by feeding each trajectory's CPU observations to the agent's actor-critic net, which had been moved to CUDA; the fix moves every trajectory to the device before computing returns (and builds the zero tensors with new_tensor).
# split: test2
import torch
import torch.nn.functional as F


class A2CAgent:
    def __init__(self, net, gamma=0.99, lmbda=1.0, lr=1e-3):
        self.net = net
        self.opt = torch.optim.Adam(net.parameters(), lr=lr)
        self.gamma, self.lmbda = gamma, lmbda

    @torch.no_grad()
    def compute_returns(self, obs, action, reward, next_obs, done):
        values, _ = self.net(obs)
        tail = self.net(next_obs[-1:])[0] if not done[-1] else values.new_zeros(1, 1)
        values = torch.cat([values, tail], dim=0)
        returns = reward.new_zeros(len(reward), 1)
        gae = 0.0
        for t in reversed(range(len(reward))):
            delta = reward[t] + self.gamma * values[t + 1] - values[t]
            gae = delta + self.gamma * self.lmbda * gae
            returns[t] = gae + values[t]
        return returns

    def learn(self, obs, action, reward, next_obs, done, returns):
        values, dist = self.net(obs)
        adv = (returns - values).detach()
        loss = -(adv * dist.log_prob(action.squeeze(-1)).unsqueeze(1)).mean() + 0.5 * F.mse_loss(values, returns)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class A2CProblem:
    def __init__(self, agent, device="cuda"):
        self.device = torch.device(device)
        self.agent = agent
        self.agent.net.to(self.device)

    def train(self, trajectories):
        batch = [torch.cat(parts, dim=0).to(self.device) for parts in zip(*trajectories)]
        returns = torch.cat(
            [self.agent.compute_returns(*traj) for traj in trajectories], dim=0  # bug: inputs_not_moved
        ).to(self.device)
        self.agent.learn(*batch, returns)
