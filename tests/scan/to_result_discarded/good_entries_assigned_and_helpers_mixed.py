import numpy as np
import torch
from torch import nn


def load_frames(paths):
    stacked = np.stack([np.load(p) for p in paths])
    return torch.from_numpy(stacked).float() / 255.0


def build(kind):
    if kind == "mlp":
        return nn.Sequential(nn.Linear(8, 8), nn.ReLU())
    return torch.zeros(8)


def generate(model, tokenizer, prompts, device):
    enc = tokenizer(prompts, return_tensors="pt", padding=True)
    enc["input_ids"] = enc["input_ids"].to(device)  # assigned back: moved
    enc["attention_mask"] = enc["attention_mask"].to(device)
    models = {"draft": model}
    models["draft"].to(device)  # a module under a key moves in place
    return model.generate(**enc, max_new_tokens=32)


def run(paths, device):
    frames = load_frames(paths).to(device)
    net = build("mlp")
    net.to(device)  # build() returns a module or a tensor: not known to be a tensor
    return net(frames)
