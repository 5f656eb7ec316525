# source: https://github.com/utiasSTARS/liegroups/pull/7
# also: https://github.com/utiasSTARS/liegroups/commit/dd5a6ac94ea4abe9bda224c62b474d380eebe42d
# kind: tensor_no_device_in_forward
# bug: the batched SO(3) exponential map allocated its output with phi.new_empty (so on phi's device) but built the identity term with torch.eye(3, dtype=phi.dtype) and no device, so rotation vectors on the GPU failed with a device mismatch; the PR creates the identity on the GPU when the input is on the GPU.
# split: test18
import torch


def skew(phi):
    zero = torch.zeros_like(phi[:, 0])
    rows = [
        torch.stack([zero, -phi[:, 2], phi[:, 1]], dim=1),
        torch.stack([phi[:, 2], zero, -phi[:, 0]], dim=1),
        torch.stack([-phi[:, 1], phi[:, 0], zero], dim=1),
    ]
    return torch.stack(rows, dim=1)


class Rotation:
    dim = 3

    def __init__(self, mat):
        self.mat = mat

    @classmethod
    def exp(cls, phi):
        if phi.dim() < 2:
            phi = phi.unsqueeze(0)
        out = phi.new_empty(phi.shape[0], cls.dim, cls.dim)
        angle = phi.norm(p=2, dim=1)
        small = angle < 1e-8
        big = ~small
        if small.any():
            out[small] = torch.eye(cls.dim, dtype=phi.dtype).expand(int(small.sum()), 3, 3) + skew(phi[small])
        if big.any():
            a = angle[big]
            axis = phi[big] / a.unsqueeze(1)
            s = a.sin().view(-1, 1, 1)
            c = a.cos().view(-1, 1, 1)
            eye = torch.eye(cls.dim, dtype=phi.dtype).unsqueeze(0)  # bug: tensor_no_device_in_forward
            outer = axis.unsqueeze(2) * axis.unsqueeze(1)
            out[big] = c * eye + (1.0 - c) * outer + s * skew(axis)
        return cls(out)


def integrate_gyro(omegas, dt=0.01):
    """Chain small rotations from gyroscope readings (N, 3) on any device."""
    steps = Rotation.exp(omegas * dt).mat
    acc = torch.eye(3, dtype=omegas.dtype, device=omegas.device)
    for r in steps:
        acc = acc @ r
    return acc


if __name__ == "__main__":
    readings = torch.randn(100, 3, device="cuda")
    print(integrate_gyro(readings))
