# source: https://github.com/PyTomography/PyTomography/pull/78
# also: https://github.com/PyTomography/PyTomography/commit/5131d54d48a490169bfd6eec32695f86ca303f40
# kind: hardcoded_cpu
# bug: the package-level device constant that every projector and reconstruction reads was torch.device("cpu"), so reconstructions ran on the CPU even on GPU machines; the merged PR makes it "cuda" when available, with a message when no GPU is found.
# split: test4
import torch

device = torch.device("cpu")  # bug: hardcoded_cpu
dtype = torch.float32
delta = 1e-11


class ParallelProjector:
    def __init__(self, system_matrix):
        self.A = system_matrix.to(device=device, dtype=dtype)

    def forward(self, image):
        return self.A @ image.reshape(-1)

    def backward(self, sino):
        return self.A.T @ sino


def osem(projector, sinogram, n_iters=10):
    sinogram = sinogram.to(device=device, dtype=dtype)
    image = torch.ones(projector.A.shape[1], device=device, dtype=dtype)
    norm = projector.backward(torch.ones_like(sinogram)) + delta
    for _ in range(n_iters):
        ratio = sinogram / (projector.forward(image) + delta)
        image = image * projector.backward(ratio) / norm
    return image
