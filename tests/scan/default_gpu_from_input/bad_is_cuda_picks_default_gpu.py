# Helpers that pick "cuda" when their input is on a GPU: the current GPU, not the input's.
import torch


def one_hot(labels, classes):
    device = torch.device("cuda") if labels.is_cuda else torch.device("cpu")  # expect: code.default_gpu_from_input
    out = torch.zeros(len(labels), classes, device=device)
    return out.scatter(1, labels.unsqueeze(-1), 1.0)


def noise_like(x, scale):
    dev = "cuda" if x.is_cuda else "cpu"  # expect: code.default_gpu_from_input
    return torch.randn(x.shape, device=dev) * scale
