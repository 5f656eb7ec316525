# A depth lookup keeps its device and moves its grids there, but builds the lookup table of sample
# depths on the CPU and then indexes it with ids that live on the device.
import torch


class DepthLookup:
    def __init__(self, near, far, steps, device):
        self.near, self.far, self.steps = near, far, steps
        self.device = device

    def depths(self, n_rays):
        ids = torch.randint(0, self.steps, (n_rays,)).to(self.device)
        table = torch.linspace(self.near, self.far, self.steps)  # expect: code.tensor_created_without_device
        picked = table[ids]
        return picked


sampler = DepthLookup(2.0, 6.0, 64, torch.device("cuda" if torch.cuda.is_available() else "cpu"))
