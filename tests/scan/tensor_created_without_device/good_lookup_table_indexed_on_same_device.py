# The same lookups done right: the table is made where the ids are, or the ids come back to the host
# first, or both stay on the host.
import torch


class DepthLookup:
    def __init__(self, near, far, steps, device):
        self.near, self.far, self.steps = near, far, steps
        self.device = device

    def depths(self, n_rays):
        ids = torch.randint(0, self.steps, (n_rays,)).to(self.device)
        table = torch.linspace(self.near, self.far, self.steps, device=self.device)
        return table[ids]

    def depths_on_host(self, n_rays):
        ids = torch.randint(0, self.steps, (n_rays,)).to(self.device)
        table = torch.linspace(self.near, self.far, self.steps)
        return table[ids.cpu()].to(self.device)

    def host_only(self, n_rays):
        ids = torch.randint(0, self.steps, (n_rays,))
        table = torch.linspace(self.near, self.far, self.steps)
        return table[ids]


sampler = DepthLookup(2.0, 6.0, 64, torch.device("cuda" if torch.cuda.is_available() else "cpu"))
