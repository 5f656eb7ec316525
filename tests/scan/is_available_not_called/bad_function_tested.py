# Availability tests written without the call: each one reads the function object, which is always
# true, so a machine without a GPU takes the GPU branch.
import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--no-cuda", action="store_true")
args = parser.parse_args()

device = torch.device("cuda:0" if torch.cuda.is_available else "cpu")  # expect: code.is_available_not_called=error
use_cuda = not args.no_cuda and torch.cuda.is_available  # expect: code.is_available_not_called=error
on_gpu = True if torch.cuda.is_available else False  # expect: code.is_available_not_called=error

model = nn.Linear(4, 2)
if torch.cuda.is_available:  # expect: code.is_available_not_called=error
    model = model.to(device)
elif torch.backends.mps.is_available:  # expect: code.is_available_not_called=error
    model = model.to("mps")


def pick(flag):
    assert torch.cuda.is_available, "needs a GPU"  # expect: code.is_available_not_called=error
    return device if flag else torch.device("cpu")
