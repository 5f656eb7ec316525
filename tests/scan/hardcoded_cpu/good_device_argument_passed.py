# The device is passed on, the caller has none to give, or the CPU is the user's choice.
import torch
from torch import nn


def load_encoder(path, cuda_device=-1):
    model = nn.Linear(300, 128)
    model.load_state_dict(torch.load(path, map_location="cpu"))
    if cuda_device >= 0:
        model.cuda(cuda_device)
    return model.eval()


def benchmark(path, batches, cuda_device=0):
    encoder = load_encoder(path, cuda_device=cuda_device)
    return [encoder(x) for x in batches]


def benchmark_positional(path, batches, cuda_device=0):
    encoder = load_encoder(path, cuda_device)
    return [encoder(x) for x in batches]


def export(path):
    return load_encoder(path)


def evaluate(path, batches, cuda_device=0, cpu=False):
    if cpu:
        encoder = load_encoder(path)
    else:
        encoder = load_encoder(path, cuda_device=cuda_device)
    return [encoder(x) for x in batches]


def embed(texts, device=None):
    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    return torch.zeros(len(texts), 8, device=device)


def run(texts, device="cuda"):
    return embed(texts)
