# source: https://github.com/pytorch/benchmark/issues/271
# kind: model_not_moved
# bug: the generated torchvision benchmark wrappers stored the requested device (e.g. "cuda") but built the network, the example inputs and the random targets without ever moving them there, so every "cuda" benchmark silently trained and evaluated on the CPU; the fix (#274) moves the model and inputs with .to(self.device) and creates the targets on the device.
# split: test25
import torch
import torch.nn as nn
import torch.optim as optim


def make_backbone(num_classes=1000):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes),
    )


class BenchModel:
    task = "classification"

    def __init__(self, device="cpu", jit=False):
        self.device = device
        self.jit = jit
        self.model = make_backbone()  # bug: model_not_moved
        if self.jit:
            self.model = torch.jit.script(self.model)
        self.example_inputs = (torch.randn((32, 3, 224, 224), device=self.device),)

    def get_module(self):
        return self.model, self.example_inputs

    def train(self, niter=3):
        optimizer = optim.Adam(self.model.parameters())
        loss = nn.CrossEntropyLoss()
        for _ in range(niter):
            optimizer.zero_grad()
            pred = self.model(*self.example_inputs)
            y = torch.empty(pred.shape[0], dtype=torch.long, device=self.device).random_(pred.shape[1])
            loss(pred, y).backward()
            optimizer.step()

    def eval(self, niter=1):
        model, example_inputs = self.get_module()
        x = example_inputs[0][0].unsqueeze(0)
        with torch.no_grad():
            for _ in range(niter):
                model(x)


if __name__ == "__main__":
    m = BenchModel(device="cuda" if torch.cuda.is_available() else "cpu")
    m.train(niter=1)
    m.eval(niter=1)
