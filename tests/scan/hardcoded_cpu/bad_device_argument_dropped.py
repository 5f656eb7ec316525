# A helper chooses the device from a parameter that defaults to the CPU; its caller has a device at
# hand and does not pass it on.
import argparse

import torch
from torch import nn


def load_encoder(path, cuda_device=-1):
    model = nn.Linear(300, 128)
    model.load_state_dict(torch.load(path, map_location="cpu"))
    if cuda_device >= 0:
        model.cuda(cuda_device)
    return model.eval()


def predict(model, loader, gpus=None):
    device = torch.device("cuda:%d" % gpus[0]) if gpus else torch.device("cpu")
    model = model.to(device)
    return [model(x.to(device)) for x in loader]


def benchmark(path, batches, cuda_device=0):
    encoder = load_encoder(path)  # expect: code.hardcoded_cpu
    return [encoder(x) for x in batches]


def main(args, model, train, loader):
    train(model, gpus=args.gpus)
    return predict(model, loader)  # expect: code.hardcoded_cpu


if __name__ == "__main__":
    cli = argparse.ArgumentParser()
    cli.add_argument("--gpus", type=int, nargs="+")
    main(cli.parse_args(), nn.Linear(4, 1), lambda m, gpus=None: None, [])
