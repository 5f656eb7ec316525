import numpy as np
import torch
from torch import nn


class FrameClassifier:
    def __init__(self, device):
        self.device = device
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).to(device)

    def frame_tensor(self, pixels):
        frame = np.frombuffer(pixels, dtype=np.uint8).reshape(32, 32, 3)
        return torch.from_numpy(frame.copy()).permute(2, 0, 1).unsqueeze(0).float() / 255.0

    def classify(self, pixels):
        x = self.frame_tensor(pixels).to(self.device)
        with torch.no_grad():
            return self.net(x).argmax(-1)

    def classify_on_host(self, pixels):
        x = self.frame_tensor(pixels)
        return x.mean()
