import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
parser.add_argument("--model-file", default="model.pt")
args = parser.parse_args()

model = torch.load(args.model_file, map_location=args.device, weights_only=False).eval()
weights = torch.load("weights.pt", weights_only=True, mmap=True)
