import argparse
import os

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda")
args = parser.parse_args()

# The user asked for the CPU: hiding the GPUs is what they want.
if args.device == "cpu":
    os.environ["CUDA_VISIBLE_DEVICES"] = "-1"

print(torch.cuda.is_available())
