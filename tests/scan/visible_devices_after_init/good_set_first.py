import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--gpus", default="0")
args = parser.parse_args()
os.environ["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus

import torch  # noqa: E402  (imported after the environment is set, on purpose)

print(torch.cuda.device_count())


def worker(rank):
    os.environ["CUDA_VISIBLE_DEVICES"] = str(rank)  # in a fresh worker process, before CUDA is touched
    return torch.zeros(1).cuda()
