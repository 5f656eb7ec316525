# source: https://github.com/learnables/learn2learn/pull/162
# also: https://github.com/learnables/learn2learn/commit/6d113f84386f13afc548ba2cd99a2a0e02935a23
# kind: attribute_not_buffer
# bug: the CAVIA meta-RL example's policy kept its per-task context vector as a plain tensor attribute made with `torch.zeros(..., requires_grad=True)` on the CPU (and re-made it on the CPU in `reset_context`), so `policy.to('cuda')` moved the MLP but not the context, and concatenating it with CUDA states failed when the example ran with `cuda=1`; the merged PR gives the policy a `device` and creates the context (and the layers) on it.
# split: test13
import math

import torch
from torch import nn
from torch.distributions import Normal

EPSILON = 1e-6


class ContextDiagNormalPolicy(nn.Module):
    def __init__(self, input_size, output_size, hiddens=(100, 100), num_context_params=2):
        super().__init__()
        layers = [nn.Linear(input_size + num_context_params, hiddens[0]), nn.ReLU()]
        for i, o in zip(hiddens[:-1], hiddens[1:]):
            layers += [nn.Linear(i, o), nn.ReLU()]
        layers.append(nn.Linear(hiddens[-1], output_size))
        self.num_context_params = num_context_params
        self.context_params = torch.zeros(self.num_context_params, requires_grad=True)  # bug: attribute_not_buffer
        self.mean = nn.Sequential(*layers)
        self.sigma = nn.Parameter(torch.full((output_size,), math.log(1.0)))

    def density(self, state):
        ctx = self.context_params.expand(state.shape[:-1] + self.context_params.shape)
        state = torch.cat((state, ctx), dim=state.dim() - 1)
        loc = self.mean(state)
        scale = torch.exp(torch.clamp(self.sigma, min=math.log(EPSILON)))
        return Normal(loc=loc, scale=scale)

    def log_prob(self, state, action):
        return self.density(state).log_prob(action).mean(dim=1, keepdim=True)

    def forward(self, state):
        return self.density(state).sample()

    def reset_context(self):
        self.context_params = torch.zeros(self.num_context_params, requires_grad=True)


def adapt_context(policy, states, actions, advantages, lr=0.1):
    loss = -(policy.log_prob(states, actions) * advantages).mean()
    (grad,) = torch.autograd.grad(loss, policy.context_params, create_graph=True)
    policy.context_params = policy.context_params - lr * grad
    return policy


def main(state_size=2, action_size=2, cuda=1, meta_bsz=4, adapt_bsz=20):
    cuda = bool(cuda)
    policy = ContextDiagNormalPolicy(state_size, action_size)
    if cuda:
        policy.to("cuda")
    device = "cuda" if cuda else "cpu"
    for _ in range(meta_bsz):
        policy.reset_context()
        states = torch.randn(adapt_bsz, state_size, device=device)
        actions = policy(states)
        advantages = torch.randn(adapt_bsz, 1, device=device)
        adapt_context(policy, states, actions, advantages)


if __name__ == "__main__":
    main()
