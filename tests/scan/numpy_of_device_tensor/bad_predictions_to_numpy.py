# An evaluation loop that moves its batches and model to the GPU, then hands the predictions and the
# moved inputs to NumPy as they are.
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
            x = x.to(device)
            logits = model(x)
            preds.append(logits.argmax(1).numpy())  # expect: code.numpy_of_device_tensor
            seen.append(np.asarray(x))  # expect: code.numpy_of_device_tensor
    scores = model(torch.zeros(1, 8, device=device)).detach().numpy()  # expect: code.numpy_of_device_tensor
    return np.concatenate(preds), seen, scores
