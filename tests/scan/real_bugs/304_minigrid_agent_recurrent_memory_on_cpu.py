# source: https://github.com/lcswillems/rl-starter-files/pull/47
# also: https://github.com/lcswillems/rl-starter-files/commit/b12ea43a66baf6c3e29102a4c42755917785ced9
# kind: inputs_not_moved
# bug: the evaluation agent moved its recurrent actor-critic to `self.device` and preprocessed observations there, but created the recurrent memory with `torch.zeros(num_envs, memory_size)` on the CPU and fed it to the model with every batch of observations (and multiplied it by CPU done-masks), so a CUDA run failed with a device mismatch; the fix creates both tensors with `device=self.device`.
# split: test14
import torch
import torch.nn as nn


class RecurrentActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.memory_size = 2 * hidden
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.cell = nn.LSTMCell(hidden, hidden)
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs, memory):
        h, c = memory.chunk(2, dim=1)
        h, c = self.cell(self.encoder(obs), (h, c))
        dist = torch.distributions.Categorical(logits=self.actor(h))
        return dist, self.critic(h).squeeze(1), torch.cat([h, c], dim=1)


class EvalAgent:
    def __init__(self, obs_dim, n_actions, state_path, device=None, num_envs=1, argmax=False):
        self.model = RecurrentActorCritic(obs_dim, n_actions)
        self.device = device
        self.argmax = argmax
        self.memories = torch.zeros(num_envs, self.model.memory_size)  # bug: inputs_not_moved
        self.model.load_state_dict(torch.load(state_path, map_location="cpu"))
        self.model.to(self.device)
        self.model.eval()

    def get_actions(self, observations):
        obs = torch.tensor(observations, dtype=torch.float, device=self.device)
        with torch.no_grad():
            dist, _, self.memories = self.model(obs, self.memories)
        actions = dist.probs.argmax(1) if self.argmax else dist.sample()
        return actions.cpu().numpy()

    def analyze_feedbacks(self, rewards, dones):
        masks = 1 - torch.tensor(dones, dtype=torch.float).unsqueeze(1)
        self.memories *= masks


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    agent = EvalAgent(obs_dim=147, n_actions=7, state_path="storage/model.pt", device=dev, num_envs=16)
