import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using device: {device}")


def strict_device():
    assert torch.cuda.is_available(), "this job needs a GPU"
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    return dev


mps = "mps" if torch.backends.mps.is_available() else "cuda"  # no CPU fallback here
