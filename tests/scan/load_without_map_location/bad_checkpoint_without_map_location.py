# An evaluation script that runs on the CPU when there is no GPU, but reads its checkpoint with a bare
# torch.load: a checkpoint saved during GPU training is restored onto that GPU, and on a CPU-only
# machine the load fails ("Attempting to deserialize object on a CUDA device").
import argparse

import torch
from torch import nn


class Denoiser(nn.Module):
    def __init__(self, channels=64):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.ReLU(), nn.Conv2d(channels, 3, 3, padding=1))

    def forward(self, x):
        return x - self.body(x)


def load_denoiser(checkpoint, device="cpu"):
    model = Denoiser()
    state = torch.load(checkpoint)  # expect: code.load_without_map_location
    model.load_state_dict(state["model"])
    return model.to(device)


class Wrapper:
    def __init__(self, network):
        self.network = network

    def restore(self, path):
        self.network.load_state_dict(torch.load(path))  # expect: code.load_without_map_location


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", required=True)
    parser.add_argument("--no-gpu", action="store_true")
    args = parser.parse_args()
    device = torch.device("cpu" if args.no_gpu or not torch.cuda.is_available() else "cuda")
    model = load_denoiser(args.weights, device)
    noisy = torch.rand(1, 3, 64, 64, device=device)
    with torch.no_grad():
        print(model(noisy).shape)


if __name__ == "__main__":
    main()
