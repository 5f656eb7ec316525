# source: https://github.com/davidmrau/mixture-of-experts/pull/14
# kind: other
# bug: the sparsely-gated mixture-of-experts layer wrapped its gating and noise matrices as nn.Parameter(...).to(self.device), which returns a plain non-leaf tensor, so the gates were never registered, never saved and never learned; the fix drops the .to(device) in __init__ and lets module.to() move the real parameters.
# split: test22
import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal


class Expert(nn.Module):
    def __init__(self, d_in, d_out, hidden):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, d_out)

    def forward(self, x):
        return torch.softmax(self.fc2(torch.relu(self.fc1(x))), dim=1)


class Dispatcher:
    def __init__(self, num_experts, gates):
        self._gates = gates
        sorted_experts, index_sorted = torch.nonzero(gates).sort(0)
        _, self._expert_index = sorted_experts.split(1, dim=1)
        self._batch_index = torch.nonzero(gates)[index_sorted[:, 1], 0]
        self._part_sizes = (gates > 0).sum(0).tolist()
        gates_exp = gates[self._batch_index.flatten()]
        self._nonzero_gates = torch.gather(gates_exp, 1, self._expert_index)

    def dispatch(self, inp):
        return torch.split(inp[self._batch_index].squeeze(1), self._part_sizes, dim=0)

    def combine(self, expert_out):
        stitched = torch.cat(expert_out, 0).exp() * self._nonzero_gates
        zeros = torch.zeros(self._gates.size(0), expert_out[-1].size(1), device=stitched.device)
        combined = zeros.index_add(0, self._batch_index, stitched.float())
        combined[combined == 0] = np.finfo(float).eps
        return combined.log()


class MixtureOfExperts(nn.Module):
    def __init__(self, input_size, output_size, num_experts, hidden_size, k=4, device="cpu"):
        super().__init__()
        self.device = device
        self.k = k
        self.num_experts = num_experts
        self.experts = nn.ModuleList([Expert(input_size, output_size, hidden_size) for _ in range(num_experts)])
        self.w_gate = nn.Parameter(torch.zeros(input_size, num_experts), requires_grad=True).to(self.device)  # bug: other
        self.w_noise = nn.Parameter(torch.zeros(input_size, num_experts), requires_grad=True).to(self.device)
        self.softplus = nn.Softplus()
        self.normal = Normal(torch.tensor([0.0]).to(self.device), torch.tensor([1.0]).to(self.device))

    def noisy_top_k_gating(self, x, train, noise_eps=1e-2):
        clean = x @ self.w_gate
        if train:
            std = self.softplus(x @ self.w_noise) + noise_eps
            logits = clean + torch.randn_like(clean) * std
        else:
            logits = clean
        top_logits, top_idx = logits.topk(min(self.k + 1, self.num_experts), dim=1)
        top_k_gates = torch.softmax(top_logits[:, : self.k], dim=1)
        zeros = torch.zeros_like(logits, requires_grad=True)
        return zeros.scatter(1, top_idx[:, : self.k], top_k_gates)

    def forward(self, x):
        gates = self.noisy_top_k_gating(x, self.training)
        importance = gates.sum(0)
        aux = importance.float().var() / (importance.float().mean() ** 2 + 1e-10)
        dispatcher = Dispatcher(self.num_experts, gates)
        outs = [self.experts[i](inp) for i, inp in enumerate(dispatcher.dispatch(x))]
        return dispatcher.combine(outs), aux


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = MixtureOfExperts(3072, 10, num_experts=10, hidden_size=256, k=4, device=device).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x = torch.randn(32, 3072, device=device)
    y = torch.randint(0, 10, (32,), device=device)
    out, aux = net(x)
    loss = nn.functional.nll_loss(out, y) + 1e-2 * aux
    opt.zero_grad()
    loss.backward()
    opt.step()
