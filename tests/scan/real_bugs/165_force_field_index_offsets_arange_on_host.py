# source: https://github.com/openforcefield/smee/pull/80
# also: https://github.com/openforcefield/smee/commit/894d07758f03ebdf9d672d9891b40b90a712e9e7
# kind: tensor_no_device_in_forward
# bug: when broadcasting each topology's interaction indices to the full system, the per-copy offsets were built with torch.arange(n_copies) on the CPU and added to the particle indices, which lived on CUDA once the system was moved there; the fix builds the offsets with an arange_like helper on the indices' device and dtype.
# split: test6
import torch


class ParameterMap:
    def __init__(self, particle_idxs, assignment):
        self.particle_idxs = particle_idxs
        self.assignment = assignment


class Topology:
    def __init__(self, n_particles, parameters):
        self.n_particles = n_particles
        self.parameters = parameters


def broadcast_indices(topologies, n_copies, potential_type):
    start = 0
    blocks = []
    for topology, copies in zip(topologies, n_copies):
        offsets = start + torch.arange(copies) * topology.n_particles  # bug: tensor_no_device_in_forward
        idxs = topology.parameters[potential_type].particle_idxs
        width = idxs.shape[-1]
        if len(idxs) > 0:
            idxs = offsets[:, None, None] + idxs[None, :, :]
            blocks.append(idxs.reshape(-1, width))
        start += copies * topology.n_particles
    return torch.vstack(blocks)


def harmonic_bond_energy(coords, topologies, n_copies, k, r0):
    pairs = broadcast_indices(topologies, n_copies, "Bonds")
    delta = coords[pairs[:, 1]] - coords[pairs[:, 0]]
    dist = delta.norm(dim=-1)
    return (0.5 * k * (dist - r0) ** 2).sum()


if __name__ == "__main__":
    dev = "cuda"
    bonds = ParameterMap(torch.tensor([[0, 1], [1, 2]], device=dev), None)
    water = Topology(3, {"Bonds": bonds})
    xyz = torch.randn(3 * 64, 3, device=dev, requires_grad=True)
    energy = harmonic_bond_energy(xyz, [water], [64], k=450.0, r0=0.96)
    energy.backward()
