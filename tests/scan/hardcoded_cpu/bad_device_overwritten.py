# A device chosen for the GPU, then overwritten with the CPU a line later (a debugging pin left
# behind): the model and everything else run on the CPU.
import torch
from torch import nn

from helpers import get_device

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
device = torch.device("cpu")  # expect: code.hardcoded_cpu


def train(data):
    dev = get_device()
    dev = "cpu"  # expect: code.hardcoded_cpu
    model = nn.Linear(4, 2)
    return model(torch.as_tensor(data, device=dev))
