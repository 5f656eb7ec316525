# source: https://github.com/optiland/optiland/pull/469
# also: https://github.com/optiland/optiland/commit/218cab5dbe7ebfaba9233843222d6465edaec2e8
# kind: tensor_no_device_in_forward
# bug: the torch backend of a ray-tracing library kept a configurable device, but its `atleast_1d`/`atleast_2d` conversion helpers called `torch.as_tensor(x, dtype=...)` without a device, so traced rays built through them stayed on the CPU and tracing with device "cuda" failed with a device mismatch; the fix passes `device=get_device()`.
# split: test15
import torch

_CONFIG = {"device": "cpu", "dtype": torch.float64}


def set_device(device):
    _CONFIG["device"] = device


def get_device():
    return _CONFIG["device"]


def get_precision():
    return _CONFIG["dtype"]


def array(x):
    return torch.as_tensor(x, dtype=get_precision(), device=get_device())


def atleast_1d(x):
    t = torch.as_tensor(x, dtype=get_precision())  # bug: tensor_no_device_in_forward
    return t.unsqueeze(0) if t.ndim == 0 else t


class RealRays:
    def __init__(self, x, y, z, L, M, N):
        self.x, self.y, self.z = atleast_1d(x), atleast_1d(y), atleast_1d(z)
        self.L, self.M, self.N = atleast_1d(L), atleast_1d(M), atleast_1d(N)


class SphericalSurface:
    def __init__(self, radius, thickness):
        self.radius = array(radius)
        self.thickness = array(thickness)

    def trace(self, rays):
        rays.z = rays.z - self.thickness
        a = rays.L ** 2 + rays.M ** 2 + rays.N ** 2
        b = 2 * (rays.x * rays.L + rays.y * rays.M + (rays.z - self.radius) * rays.N)
        c = rays.x ** 2 + rays.y ** 2 + (rays.z - self.radius) ** 2 - self.radius ** 2
        t = (-b - torch.sqrt(b ** 2 - 4 * a * c)) / (2 * a)
        rays.x, rays.y, rays.z = rays.x + t * rays.L, rays.y + t * rays.M, rays.z + t * rays.N
        return rays


if __name__ == "__main__":
    set_device("cuda" if torch.cuda.is_available() else "cpu")
    surface = SphericalSurface(radius=50.0, thickness=5.0)
    n = 1024
    rays = RealRays(torch.linspace(-1, 1, n).tolist(), [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n, [1.0] * n)
    print(surface.trace(rays).z.mean())
