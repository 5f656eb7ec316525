import numpy as np
import torch
from torch import nn


class FrameClassifier:
    def __init__(self, device):
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 10)).to(device)

    def frame_tensor(self, pixels):
        frame = np.frombuffer(pixels, dtype=np.uint8).reshape(32, 32, 3)
        return torch.from_numpy(frame.copy()).permute(2, 0, 1).unsqueeze(0).float() / 255.0

    def pad_tokens(self, rows, pad_id=0):
        width = max(len(r) for r in rows)
        return torch.tensor([r + [pad_id] * (width - len(r)) for r in rows])

    def classify(self, pixels):
        x = self.frame_tensor(pixels)
        with torch.no_grad():
            return self.net(x).argmax(-1)  # expect: code.inputs_not_moved

    def score(self, rows):
        tokens = self.pad_tokens(rows)
        return self.net(tokens)  # expect: code.inputs_not_moved
