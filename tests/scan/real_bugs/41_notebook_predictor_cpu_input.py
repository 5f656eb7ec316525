# source: https://github.com/GokuMohandas/Made-With-ML/pull/105
# also: https://github.com/GokuMohandas/Made-With-ML/commit/ff0778f8e4972f3e20fff1cb306bc444a9076d95
# kind: inputs_not_moved
# bug: in the object-oriented notebook the trained classifier lived on CUDA, but the inference helper built the vectorised name with torch.tensor(...) on the CPU and called the model with it; the fix gave the helper a device and moved the input (and the model) there.
# split: test2
import numpy as np
import torch
import torch.nn as nn


class NameClassifier(nn.Module):
    def __init__(self, vocab, classes):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(vocab, 64), nn.ReLU(), nn.Linear(64, classes))

    def forward(self, x):
        return self.fc(x)


class Predictor(object):
    def __init__(self, model, encoder):
        self.model = model
        self.encoder = encoder

    def top_class(self, name):
        vec = torch.tensor(self.encoder(name)).view(1, -1)
        with torch.no_grad():
            probs = torch.softmax(self.model(vec), dim=1)  # bug: inputs_not_moved
        return int(probs.argmax().item())


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = NameClassifier(26, 5).to(device)
predictor = Predictor(net, lambda s: np.ones(26, dtype=np.float32))
print(predictor.top_class("smith"))
