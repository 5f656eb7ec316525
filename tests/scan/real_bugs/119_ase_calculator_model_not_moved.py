# source: https://github.com/atomistic-machine-learning/schnetpack/pull/197
# also: https://github.com/atomistic-machine-learning/schnetpack/commit/2f93763d8518767bff1f9f35ab01c5705cbcd221
# kind: model_not_moved
# bug: the ASE calculator took a `device` argument and gave it to the atoms converter, so every input batch was built on CUDA, but it stored the model as passed, still on the CPU (issue #195); the fix adds `self.model.to(device)` in the constructor.
# split: test3
from ase.calculators.calculator import Calculator, all_changes

from molnet.data import AtomsToInputs


class NetCalculator(Calculator):
    implemented_properties = ["energy", "forces"]

    def __init__(self, model, device="cpu", energy="energy", forces="forces", cutoff=5.0, **kwargs):
        Calculator.__init__(self, **kwargs)
        self.model = model  # bug: model_not_moved
        self.converter = AtomsToInputs(cutoff=cutoff, device=device)
        self.energy_key = energy
        self.forces_key = forces

    def calculate(self, atoms=None, properties=("energy",), system_changes=all_changes):
        Calculator.calculate(self, atoms, properties, system_changes)
        inputs = self.converter(atoms)
        out = self.model(inputs)
        self.results = {
            "energy": out[self.energy_key].detach().cpu().numpy().reshape(-1)[0],
            "forces": out[self.forces_key].detach().cpu().numpy().reshape(len(atoms), 3),
        }
