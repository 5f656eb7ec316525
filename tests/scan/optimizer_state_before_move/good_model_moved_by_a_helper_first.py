# The helper moves the model first, then the optimizer is built over the moved parameters; a helper
# that only reads the model moves nothing.
import torch
import torch.nn as nn


def place(model, device):
    model.to(device)
    return model


def count(model):
    return sum(p.numel() for p in model.parameters())


if __name__ == "__main__":
    net = nn.Linear(8, 1)
    net = place(net, "cuda" if torch.cuda.is_available() else "cpu")
    optimizer = torch.optim.Adagrad(net.parameters(), lr=1e-2)
    other = nn.Linear(8, 1)
    other_optimizer = torch.optim.Adagrad(other.parameters(), lr=1e-2)
    print(count(other))
