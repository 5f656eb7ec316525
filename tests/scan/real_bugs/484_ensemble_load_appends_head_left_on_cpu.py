# source: https://github.com/fideus-labs/KonfAI/pull/26
# kind: loaded_weights_not_moved
# bug: for ensemble prediction each model's custom load() appended a new output head sized from the checkpoint after the network had already been placed on the GPU, and the placement walk skipped already-placed parents, so the freshly loaded head stayed on the CPU and the forward pass crashed; the fix co-locates modules added during load() onto the model's device after every load.
# split: test23
from typing import Dict, List

import torch
import torch.nn as nn


class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.placed_on = "cpu"

    def place(self, device: torch.device):
        if self.placed_on == "cpu":
            self.to(device)
            self.placed_on = str(device)
        return self

    def load(self, state_dict: Dict[str, torch.Tensor]):
        self.load_state_dict(state_dict, strict=False)


class SegHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict()


class OrganSegmenter(Network):
    def __init__(self, in_ch=1):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv3d(in_ch, 16, 3, padding=1), nn.ReLU())
        self.head = SegHead()

    def load(self, state_dict):
        n_classes = state_dict["head.layers.conv.weight"].shape[0]
        self.head.layers["conv"] = nn.Conv3d(16, n_classes, 1)
        super().load(state_dict)

    def forward(self, x):
        return self.head.layers["conv"](self.encoder(x))


class ModelComposite:
    def __init__(self, checkpoints: List[Dict[str, torch.Tensor]], device: torch.device):
        self.checkpoints = checkpoints
        self.device = device
        self.model = OrganSegmenter().place(device)
        self.loaded = None

    def _ensure_model_loaded(self, idx: int):
        if self.loaded != idx:
            self.model.load(self.checkpoints[idx])  # bug: loaded_weights_not_moved
            self.loaded = idx

    @torch.no_grad()
    def predict(self, volume: torch.Tensor) -> torch.Tensor:
        volume = volume.to(self.device)
        outputs = []
        for i in range(len(self.checkpoints)):
            self._ensure_model_loaded(i)
            outputs.append(self.model(volume).softmax(1))
        return torch.stack(outputs).mean(0)


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ref = OrganSegmenter()
    ref.head.layers["conv"] = nn.Conv3d(16, 5, 1)
    ckpts = [ref.state_dict(), ref.state_dict()]
    comp = ModelComposite(ckpts, dev)
    print(comp.predict(torch.randn(1, 1, 8, 8, 8)).shape)
