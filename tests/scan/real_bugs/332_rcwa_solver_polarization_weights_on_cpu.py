# source: https://github.com/yi-huang-1/torchrdit/pull/20
# also: https://github.com/yi-huang-1/torchrdit/commit/9da5245532670fac2cc7aef6394549fbb6a3590e
# kind: tensor_no_device_in_forward
# bug: the electromagnetic solver built every source vector with `device=self.device`, except the per-frequency TE/TM polarization amplitudes, which were wrapped with a bare `torch.tensor(...)` and multiplied with CUDA field vectors, so solving with a per-frequency source on the GPU failed; the merged fix creates them with the solver's dtype and device.
# split: test15
import numpy as np
import torch


class FourierSolver:
    def __init__(self, freqs, kdim=(5, 5), device="cpu"):
        self.device = torch.device(device)
        self.tcomplex = torch.complex64
        self.n_freqs = len(freqs)
        self.kdim = kdim
        self.kinc = torch.zeros((self.n_freqs, 3), dtype=self.tcomplex, device=self.device)
        self.kinc[:, 2] = torch.as_tensor(np.asarray(freqs), dtype=self.tcomplex, device=self.device)
        self.src = {}

    def add_source(self, theta, phi, pte, ptm):
        self.src = {"theta": theta, "phi": phi, "pte": pte, "ptm": ptm}

    def source_field(self):
        n_harmonics = self.kdim[0] * self.kdim[1]
        norm_vec = torch.tensor([0.0, 0.0, 1.0], dtype=self.tcomplex, device=self.device)
        ate = torch.tensor([0.0, 1.0, 0.0], dtype=self.tcomplex, device=self.device)[None, :].repeat(self.n_freqs, 1)
        if abs(self.src["theta"]) >= 1e-3:
            ate = torch.cross(self.kinc, norm_vec[None, :].repeat(self.n_freqs, 1), dim=1)
            ate = ate / torch.norm(ate, dim=1).unsqueeze(-1)
        atm = torch.cross(ate, self.kinc, dim=1)
        atm = atm / torch.norm(atm)
        if isinstance(self.src["pte"], (float, int)):
            pte_vec = self.src["pte"] * ate
        else:
            pte_vec = torch.tensor(self.src["pte"])[:, None] * ate  # bug: tensor_no_device_in_forward
        if isinstance(self.src["ptm"], (float, int)):
            ptm_vec = self.src["ptm"] * atm
        else:
            ptm_vec = torch.tensor(self.src["ptm"])[:, None] * atm
        pol_vec = pte_vec + ptm_vec
        pol_vec = pol_vec / torch.norm(pol_vec, dim=1).unsqueeze(-1)
        delta = torch.zeros((self.n_freqs, n_harmonics), dtype=self.tcomplex, device=self.device)
        delta[:, (self.kdim[1] // 2) * self.kdim[0] + self.kdim[0] // 2] = 1
        return torch.cat((pol_vec[:, 0:1] * delta, pol_vec[:, 1:2] * delta), dim=1)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    solver = FourierSolver(freqs=[1 / 1.55, 1 / 1.31], device=dev)
    solver.add_source(theta=0.0, phi=0.0, pte=[1.0, 0.7], ptm=[0.0, 0.3])
    print(solver.source_field().shape)
