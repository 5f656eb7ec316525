# The same script moving both models; and a lesson whose first model, built before the device is
# chosen, runs on the CPU on purpose.
import torch
from torch import nn


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x):
        return self.body(x)


def build_refiner(path=None):
    net = Refiner()
    if path:
        net.load_state_dict(torch.load(path, map_location="cpu"))
    return net.eval()


first = build_refiner()
print(first(torch.rand(1, 3, 8, 8)).shape)

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"device: {DEVICE}")
detector = nn.Conv2d(3, 8, 3).to(DEVICE)
refiner = build_refiner()
refiner.to(DEVICE)
print(refiner(torch.rand(1, 3, 32, 32, device=DEVICE)).shape, detector)
