# A script builds Adagrad over the fresh model and hands both to a set-up helper that moves the model
# (through another helper): Adagrad's state was made on the CPU. The optimizer is kept by a plain
# holder object, which loads nothing.
import torch
import torch.nn as nn


class Holder:
    def __init__(self, optimizer):
        self.optimizer = optimizer


def place(model, device):
    model.to(device)
    return model


def set_up(model, device):
    model = place(model, device)
    return model


if __name__ == "__main__":
    net = nn.Linear(8, 1)
    optimizer = torch.optim.Adagrad(net.parameters(), lr=1e-2)  # expect: code.optimizer_state_before_move=error
    holder = Holder(optimizer)
    net = set_up(net, "cuda" if torch.cuda.is_available() else "cpu")
