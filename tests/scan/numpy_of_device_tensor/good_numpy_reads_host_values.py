# The same code with the values brought to the host first, and NumPy given what a helper returns (a
# number or a list, not a device tensor).
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
            if np.isnan(out.data.max().item()):
                continue
            peaks.append(np.max(out.cpu().numpy()))
    return peaks


def accuracy(out, labels):
    return (out.argmax(1) == labels).float().mean().item()


def train(images, labels, steps=10):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = nn.Linear(8, 2).to(device)
    history = np.zeros((steps, 1))
    scores = []
    for i in range(steps):
        x = torch.from_numpy(images[i]).to(device)
        out = net(x)
        loss = out.pow(2).mean()
        loss.backward()
        history[i] = loss.item()
        scores.append(accuracy(out, labels[i].to(device)))
    return history, np.mean(scores)
