# source: https://github.com/materialyzeai/matgl/pull/133
# also: https://github.com/materialyzeai/matgl/commit/f7cfd439ff0d2d467be464425bc2aa8ba89f8108
# kind: attribute_not_buffer
# bug: the graph-network potential (and its Lightning wrapper) kept the target mean/std as plain tensor attributes, so `.to()` and Lightning never moved them; every forward worked around it by re-moving the inner model and both statistics to the graph's device; the merged fix registers `data_mean`/`data_std` as buffers and drops the per-call moves.
# split: test14
import torch
import torch.nn as nn
from torch.autograd import grad


class EnergyModel(nn.Module):
    def __init__(self, n_species=89, dim=64):
        super().__init__()
        self.embed = nn.Embedding(n_species, dim)
        self.mlp = nn.Sequential(nn.Linear(dim + 3, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, species, pos, graph_index, n_graphs):
        atom_e = self.mlp(torch.cat([self.embed(species), pos], dim=-1)).squeeze(-1)
        return torch.zeros(n_graphs, device=pos.device).index_add(0, graph_index, atom_e)


class Potential(nn.Module):
    def __init__(self, model, data_mean=None, data_std=None, calc_forces=True):
        super().__init__()
        self.model = model
        self.calc_forces = calc_forces
        self.data_mean = torch.tensor(data_mean) if data_mean is not None else torch.zeros(1)  # bug: attribute_not_buffer
        self.data_std = torch.tensor(data_std) if data_std is not None else torch.ones(1)

    def forward(self, species, pos, graph_index, n_graphs):
        if self.calc_forces:
            pos.requires_grad_(True)
        self.model = self.model.to(pos.device)
        self.data_mean = self.data_mean.to(pos.device)
        self.data_std = self.data_std.to(pos.device)
        energies = self.data_std * self.model(species, pos, graph_index, n_graphs) + self.data_mean
        forces = torch.zeros(1, device=pos.device)
        if self.calc_forces:
            forces = -grad(energies, pos, grad_outputs=torch.ones_like(energies), create_graph=True)[0]
        return energies, forces


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    pot = Potential(EnergyModel(), data_mean=-3.2, data_std=1.7).to(device)
    species = torch.randint(0, 89, (32,), device=device)
    pos = torch.randn(32, 3, device=device)
    graph_index = torch.arange(4, device=device).repeat_interleave(8)
    e, f = pot(species, pos, graph_index, 4)
