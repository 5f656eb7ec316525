# source: https://github.com/ACEsuit/mace/pull/245
# also: https://github.com/ACEsuit/mace/commit/2ab8ed25089ed7437957433c86fa34517b7a0037
# kind: other
# bug: the interatomic-potential calculator loaded its models with `map_location=device` and `.to(device)`, but resolved its own working device through a helper that only recognised the exact string "cuda", so "cuda:0" fell through to the CPU branch and every atomic batch was sent to the CPU while the models sat on the GPU; the merged fix accepts any "cuda..." string and returns that device.
# split: test17
import logging

import torch
import torch.nn as nn


def init_device(device_str):
    if device_str == "cuda":  # bug: other
        assert torch.cuda.is_available(), "No CUDA device available!"
        torch.cuda.init()
        return torch.device("cuda")
    if device_str == "mps":
        return torch.device("mps")
    logging.info("Using CPU")
    return torch.device("cpu")


class PairPotential(nn.Module):
    def __init__(self, num_species=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(num_species, dim)
        self.radial = nn.Sequential(nn.Linear(1, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, numbers, positions):
        diff = positions[:, None, :] - positions[None, :, :]
        dist = diff.norm(dim=-1, keepdim=True) + torch.eye(len(numbers), device=positions.device)[..., None]
        h = self.embed(numbers)
        return (self.radial(dist).squeeze(-1) * (h @ h.t())).sum() / 2


class Calculator:
    def __init__(self, model_paths, device="cpu"):
        self.models = [torch.load(p, map_location=device, weights_only=False) for p in model_paths]
        for model in self.models:
            model.to(device)
        self.device = init_device(device)

    def calculate(self, numbers, positions):
        numbers = torch.as_tensor(numbers).to(self.device)
        positions = torch.as_tensor(positions, dtype=torch.float32).to(self.device).requires_grad_(True)
        energies = []
        for model in self.models:
            energy = model(numbers, positions)
            forces = -torch.autograd.grad(energy, positions)[0]
            energies.append((energy.item(), forces.detach().cpu()))
        return energies


if __name__ == "__main__":
    torch.save(PairPotential(), "/tmp/pair.model")
    calc = Calculator(["/tmp/pair.model"], device="cuda:0")
    print(calc.calculate([1, 8, 1], [[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]]))
