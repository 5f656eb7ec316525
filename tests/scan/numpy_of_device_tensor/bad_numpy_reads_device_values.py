# NumPy functions read their arguments through np.asarray: a NaN check on the output of a model fed a
# batch on the GPU, and a NumPy log filled with a loss computed there, both ask NumPy to read device
# memory.
import numpy as np
import torch
from torch import nn

USE_GPU = torch.cuda.is_available()


def extract(model, batches):
    peaks = []
    with torch.no_grad():
        for batch in batches:
            x = torch.from_numpy(batch)
            if USE_GPU:
                x = x.cuda()
            out = model.forward(x)
            if np.isnan(out.data.max()):  # expect: code.numpy_of_device_tensor
                continue
            peaks.append(out.max().item())
    return peaks


def train(images, steps=10):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Linear(8, 1).to(device)
    history = np.zeros((steps, 1))
    for i in range(steps):
        x = torch.from_numpy(images[i]).to(device)
        loss = net(x).pow(2).mean()
        loss.backward()
        history[i] = loss.data  # expect: code.numpy_of_device_tensor
    return history
