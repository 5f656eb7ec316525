import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc(x)


def load_model(path, device="cuda"):
    model = Classifier()
    state = torch.load(path, map_location="cpu")  # expect: code.hardcoded_cpu
    model.load_state_dict(state["model"])
    return model.eval()
