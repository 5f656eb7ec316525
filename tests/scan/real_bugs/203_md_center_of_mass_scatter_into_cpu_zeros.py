# source: https://github.com/TorchSim/torch-sim/pull/583
# also: https://github.com/TorchSim/torch-sim/issues/580
# also: https://github.com/TorchSim/torch-sim/commit/b05400851bc51fc2b5766775031aa3e3aee5f8ca
# kind: cpu_accumulator
# bug: the fixed-centre-of-mass constraint and get_centers_of_mass() summed per-system masses and mass-weighted positions with torch.zeros(n_systems, ...).scatter_add_(...) and no device, so a simulation state on CUDA crashed inside the constraint; the fix passes device=state.device (positions.device) to every torch.zeros.
# split: test8
import torch


class SimState:
    def __init__(self, positions, masses, system_idx, n_systems):
        self.positions = positions
        self.masses = masses
        self.system_idx = system_idx
        self.n_systems = n_systems

    @property
    def device(self):
        return self.positions.device


class FixCenterOfMass:
    def __init__(self, systems):
        self.systems = torch.as_tensor(systems)
        self.reference = None

    def _com(self, state, positions):
        idx = state.system_idx
        mass = torch.zeros(state.n_systems, dtype=positions.dtype, device=state.device).scatter_add_(0, idx, state.masses)
        weighted = torch.zeros((state.n_systems, 3), dtype=positions.dtype).scatter_add_(  # bug: cpu_accumulator
            0, idx.unsqueeze(-1).expand(-1, 3), state.masses.unsqueeze(-1) * positions
        )
        return weighted / mass.unsqueeze(-1)

    def adjust_positions(self, state, new_positions):
        if self.reference is None:
            self.reference = self._com(state, state.positions)
        shift = torch.zeros_like(self.reference)
        shift[self.systems] = self.reference[self.systems] - self._com(state, new_positions)[self.systems]
        new_positions += shift[state.system_idx]
        return new_positions


if __name__ == "__main__":
    dev = torch.device("cuda")
    pos = torch.rand(10, 3, device=dev)
    st = SimState(pos, torch.ones(10, device=dev), torch.tensor([0] * 5 + [1] * 5, device=dev), 2)
    FixCenterOfMass([0, 1]).adjust_positions(st, pos + 0.01)
