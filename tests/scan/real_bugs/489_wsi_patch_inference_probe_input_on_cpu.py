# source: https://github.com/SBU-BMI/wsinfer/issues/79
# kind: inputs_not_moved
# bug: before classifying whole-slide patches the runner pushed a dummy probe input through the model (to check the output shape) without moving it to the model's device, so on a GPU the probe and the model were on different devices; the maintainer fixed it to put the probe on the model's device.
# split: test23
from pathlib import Path
from typing import List

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class PatchDataset(Dataset):
    def __init__(self, coords: np.ndarray, patch_size: int):
        self.coords = coords
        self.patch_size = patch_size

    def __len__(self):
        return len(self.coords)

    def __getitem__(self, i):
        patch = torch.rand(3, self.patch_size, self.patch_size)
        return patch, torch.as_tensor(self.coords[i])


def build_model(num_classes: int) -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, num_classes),
    )


def run_inference(slide_paths: List[Path], patch_size=350, num_classes=2, batch_size=32):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = build_model(num_classes)
    model.eval()
    model.to(device)

    test_input = torch.ones(1, 3, patch_size, patch_size)
    with torch.no_grad():
        test_output = model(test_input)  # bug: inputs_not_moved
    if test_output.shape[1] != num_classes:
        raise RuntimeError("model output does not match the configured class names")

    results = {}
    for path in slide_paths:
        coords = np.random.randint(0, 10000, size=(64, 2))
        loader = DataLoader(PatchDataset(coords, patch_size), batch_size=batch_size)
        probs = []
        with torch.no_grad():
            for patches, _ in loader:
                logits = model(patches.to(device))
                probs.append(logits.softmax(1).cpu().numpy())
        results[path.name] = np.concatenate(probs)
    return results


if __name__ == "__main__":
    out = run_inference([Path("slide_001.svs"), Path("slide_002.svs")])
    for k, v in out.items():
        print(k, v.shape)
