# The same loop copying to the host first; a tensor that never left the CPU; and a lesson that shows
# the error on purpose.
import numpy as np
import torch
from torch import nn


def evaluate(loader):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    print(f"device: {device}")
    model = nn.Linear(8, 3).to(device)
    preds, seen = [], []
    with torch.no_grad():
        for x, _ in loader:
            host = x.numpy()
            x = x.to(device)
            logits = model(x)
            preds.append(logits.argmax(1).cpu().numpy())
            seen.append(np.asarray(x.cpu()))
            seen.append(host)
    return np.concatenate(preds), seen


def lesson():
    on_gpu = torch.ones(3).to("cuda")
    # on the GPU, so this will error:
    on_gpu.numpy()
    return on_gpu.cpu().numpy()
