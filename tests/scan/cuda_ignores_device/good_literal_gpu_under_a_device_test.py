# "cuda" named on purpose: under a test of the chosen device's type, or with no device chosen at all.
import torch


def make_inputs(device, size=4):
    x = torch.randn(size, size, device=device)
    if torch.device(device).type == "cuda":
        y = torch.randn(size, device="cuda")
        return x, y
    return x, None


def scratch(size=4):
    return torch.empty(size, device="cuda")
