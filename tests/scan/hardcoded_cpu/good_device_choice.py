# The CPU as one of the choices the program offers: a branch of a device test, a --cpu flag, a
# checkpoint mapped to the CPU only when asked, TensorFlow kept off the GPU in a PyTorch program
# (it only reads the data), a Trainer told to use the CPU by its user.
import argparse

import lightning as L
import tensorflow as tf
import torch
from torch import nn

tf.config.set_visible_devices([], "GPU")

parser = argparse.ArgumentParser()
parser.add_argument("--cpu", action="store_true")
args = parser.parse_args()

if torch.cuda.is_available() and not args.cpu:
    device = torch.device("cuda")
else:
    device = torch.device("cpu")
print(f"training on {device}")

net = nn.Linear(8, 2)
state = torch.load("weights.pt", map_location="cpu" if args.cpu else None)
net.load_state_dict(state)
net.to(device)

if args.cpu:
    worker_device = "cpu"
    helper = nn.Linear(2, 2).to(worker_device)

trainer = L.Trainer(accelerator="cpu" if args.cpu else "gpu")
if args.cpu:
    trainer = L.Trainer(accelerator="cpu")
