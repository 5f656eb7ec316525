# source: https://github.com/seolhokim/DistributedRL-Pytorch-Ray/pull/8
# also: https://github.com/seolhokim/DistributedRL-Pytorch-Ray/commit/62dbaac249350e5e013ff3f2e51e004c52ab58a3
# kind: cpu_accumulator
# bug: the learner summed gradients sent back by the workers into each parameter's `.grad`, starting the sum from `torch.zeros(g.shape)` on the CPU and adding the (CPU) worker gradients, so with the agent on CUDA the accumulated gradient lived on the wrong device; the merged fix creates the zeros on `p.device` and moves each incoming gradient there.
# split: test16
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, state_dim, action_dim, hidden=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, action_dim))
        self.critic = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def get_gradients(self):
        return [None if p.grad is None else p.grad.detach().cpu() for p in self.parameters()]

    def add_gradients(self, gradients):
        for g, p in zip(gradients, self.parameters()):
            if g is None:
                continue
            if p.grad is None:
                p.grad = torch.zeros(g.shape)  # bug: cpu_accumulator
            p.grad += g


def worker_step(agent, states, returns):
    agent.zero_grad()
    values = agent.critic(states).squeeze(-1)
    loss = (returns - values).pow(2).mean() - agent.actor(states).log_softmax(-1).mean()
    loss.backward()
    return agent.get_gradients()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    learner = ActorCritic(8, 4).to(device)
    optimizer = torch.optim.Adam(learner.parameters(), lr=3e-4)
    workers = [ActorCritic(8, 4) for _ in range(4)]
    for update in range(10):
        optimizer.zero_grad(set_to_none=True)
        for w in workers:
            w.load_state_dict({k: v.cpu() for k, v in learner.state_dict().items()})
            grads = worker_step(w, torch.randn(32, 8), torch.randn(32))
            learner.add_gradients(grads)
        optimizer.step()
