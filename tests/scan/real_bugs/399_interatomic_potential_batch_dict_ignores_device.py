# source: https://github.com/microsoft/mattersim/issues/113
# also: https://github.com/microsoft/mattersim/pull/147
# kind: inputs_not_moved
# bug: the potential's batch-to-dict helper took a `device` argument but never used it, returning the graph tensors where they already were and building `num_graphs` with a bare torch.tensor(...), so code that reused the helper on a CPU-built batch fed CPU tensors to the CUDA model; the fix moves every tensor (and creates num_graphs) on the given device and passes self.device at the call sites.
# split: test18
import torch
import torch.nn as nn

GRAPH_KEYS = ("atom_pos", "cell", "atom_attr", "edge_index", "num_atoms", "batch")


class GraphBatch:
    def __init__(self, atom_pos, cell, atom_attr, edge_index, num_atoms):
        self.atom_pos, self.cell, self.atom_attr = atom_pos, cell, atom_attr
        self.edge_index, self.num_atoms = edge_index, num_atoms
        self.batch = torch.repeat_interleave(torch.arange(len(num_atoms)), num_atoms)
        self.num_graphs = len(num_atoms)


def batch_to_dict(graph_batch, device="cuda"):
    inputs = {k: getattr(graph_batch, k) for k in GRAPH_KEYS}  # bug: inputs_not_moved
    inputs["num_graphs"] = torch.tensor(graph_batch.num_graphs)
    return inputs


class TinyPotential(nn.Module):
    def __init__(self, n_species=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(n_species, dim)
        self.edge_mlp = nn.Sequential(nn.Linear(1, dim), nn.SiLU())
        self.readout = nn.Linear(dim, 1)

    def forward(self, inp):
        src, dst = inp["edge_index"]
        dist = (inp["atom_pos"][src] - inp["atom_pos"][dst]).norm(dim=-1, keepdim=True)
        h = self.embed(inp["atom_attr"])
        h = h.index_add(0, dst, self.edge_mlp(dist) * h[src])
        e_atom = self.readout(h).squeeze(-1)
        energy = torch.zeros(int(inp["num_graphs"]), device=e_atom.device).index_add(0, inp["batch"], e_atom)
        return energy


class EnergyCalculator:
    def __init__(self, model, device="cuda"):
        self.device = torch.device(device)
        self.model = model.to(self.device).eval()

    @torch.no_grad()
    def energy(self, graph_batch):
        inputs = batch_to_dict(graph_batch, device=self.device)
        return self.model(inputs).cpu()


if __name__ == "__main__":
    n = 12
    g = GraphBatch(torch.randn(n, 3), torch.eye(3).repeat(2, 1, 1), torch.randint(0, 100, (n,)),
                   torch.randint(0, n, (2, 40)), torch.tensor([5, 7]))
    print(EnergyCalculator(TinyPotential()).energy(g))
