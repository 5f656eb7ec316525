# source: https://github.com/KaidiXu/Beta-CROWN/pull/1
# also: https://github.com/KaidiXu/Beta-CROWN/commit/2aeebd92f5083bc9855989b8ee416d54fc806e2a
# kind: loaded_weights_not_moved
# bug: the neural-network verifier took `--device cpu|cuda` but its `load_model` helper read the GPU-saved checkpoints with a bare `torch.load(args.load)`, so running the verifier with `--device cpu` on a machine without CUDA failed while deserialising; the merged PR passes `map_location=torch.device('cpu')` to `torch.load` when the device is the CPU.
# split: test13
import argparse

import torch
import torch.nn as nn


class Flatten(nn.Module):
    def forward(self, x):
        return x.view(x.size(0), -1)


def cifar_conv_small():
    return nn.Sequential(
        nn.Conv2d(3, 16, 4, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(16, 32, 4, stride=2, padding=1), nn.ReLU(),
        Flatten(), nn.Linear(32 * 8 * 8, 100), nn.ReLU(), nn.Linear(100, 10),
    )


MODELS = {"cifar_conv_small": cifar_conv_small}


def load_model(args, weights_loaded=True):
    model = MODELS[args.model]()
    if not weights_loaded:
        return model
    checkpoint = torch.load(args.load)  # bug: loaded_weights_not_moved
    state = checkpoint["state_dict"][0] if "state_dict" in checkpoint else checkpoint
    model.load_state_dict(state)
    return model


class BoundedNet(nn.Module):
    def __init__(self, model, device="cuda"):
        super().__init__()
        self.model = model.to(device)
        self.device = device

    @torch.no_grad()
    def interval_bounds(self, x, eps):
        lb, ub = (x - eps).to(self.device), (x + eps).to(self.device)
        for layer in self.model:
            if isinstance(layer, (nn.Linear, nn.Conv2d)):
                mid, rad = (ub + lb) / 2, (ub - lb) / 2
                mid = layer(mid)
                w = layer.weight.abs()
                rad = nn.functional.conv2d(rad, w, stride=layer.stride, padding=layer.padding) if isinstance(layer, nn.Conv2d) else rad @ w.t()
                lb, ub = mid - rad, mid + rad
            else:
                lb, ub = layer(lb), layer(ub)
        return lb, ub


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=str, default="cuda", choices=["cpu", "cuda"])
    parser.add_argument("--model", type=str, default="cifar_conv_small")
    parser.add_argument("--load", type=str, default="models/cifar_conv_small.pth")
    args = parser.parse_args()
    net = BoundedNet(load_model(args), device=args.device)
    print(net.interval_bounds(torch.rand(1, 3, 32, 32), 2 / 255))
