# The device falls back to the CPU without CUDA, but the next line pins the CUDA device anyway:
# on a CPU-only machine the script dies there.
import torch
from torch import nn


def train(gpu_id, epochs):
    device = torch.device(f"cuda:{gpu_id}" if torch.cuda.is_available() else "cpu")
    torch.cuda.set_device(device)  # expect: code.cuda_ignores_device
    model = nn.Linear(4, 1).to(device)
    for _ in range(epochs):
        model(torch.randn(8, 4, device=device)).sum().backward()
