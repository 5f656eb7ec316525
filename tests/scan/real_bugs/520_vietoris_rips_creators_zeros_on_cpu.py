# source: https://github.com/aidos-lab/pytorch-topological/pull/6
# kind: tensor_no_device_in_forward
# bug: the Vietoris-Rips layer built the zero "creation times" of the 0-dimensional persistence pairs with torch.zeros_like(torch.as_tensor(generators)[:, 0]) from the numpy generators returned by the CPU backend, so the tensor was always on the CPU and stacking it with the destruction times gathered from the CUDA distance matrix failed; the fix creates it on the distance matrix's device.
# split: test25
import numpy as np
import torch
from torch import nn


def cpu_pairing(points: torch.Tensor) -> np.ndarray:
    # stand-in for the external persistent-homology backend (numpy in, numpy out)
    n = points.shape[0]
    return np.stack([np.arange(n - 1), np.arange(n - 1), np.arange(1, n)], axis=1)


class PersistenceInfo:
    def __init__(self, pairing, diagram, dimension):
        self.pairing = pairing
        self.diagram = diagram
        self.dimension = dimension


class RipsLayer(nn.Module):
    def __init__(self, p=2):
        super().__init__()
        self.p = p

    def forward(self, x):
        if isinstance(x, list) or x.dim() == 3:
            return [self._single(torch.as_tensor(c)) for c in x]
        return self._single(torch.as_tensor(x))

    def _single(self, cloud):
        gens = cpu_pairing(cloud.detach().cpu())
        dist = torch.cdist(cloud, cloud, p=self.p)
        return self._diagram(dist, gens)

    def _diagram(self, dist, gens):
        births = torch.zeros_like(torch.as_tensor(gens)[:, 0])  # bug: tensor_no_device_in_forward
        deaths = dist[gens[:, 1], gens[:, 2]]
        diagram = torch.stack((births.to(deaths.dtype), deaths), 1)
        return [PersistenceInfo(gens, diagram, 0)]


class TopoLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.rips = RipsLayer()

    def forward(self, latent):
        info = self.rips(latent)[0]
        return info.diagram[:, 1].sum()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    encoder = nn.Linear(8, 2).to(dev)
    loss_fn = TopoLoss()
    batch = torch.randn(32, 8, device=dev)
    loss = loss_fn(encoder(batch))
    loss.backward()
    print(float(loss))
