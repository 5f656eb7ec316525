# The CPU chosen on purpose: said so in a comment, or behind an option.
import argparse

import torch

from helpers import get_device

device = get_device()
# Use the CPU for the first run of this chapter
device = torch.device("cpu")

parser = argparse.ArgumentParser()
parser.add_argument("--cpu", action="store_true")
args = parser.parse_args()
dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
if args.cpu:
    dev = torch.device("cpu")
