# A demo script picks the GPU, moves its detector there, then builds a second model with a builder of
# its own and never moves it: the tiles it refines are made where it is, on the CPU.
import torch
from torch import nn

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


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


print(f"device: {DEVICE}")
detector = nn.Conv2d(3, 8, 3).to(DEVICE)
refiner = build_refiner()  # expect: code.model_not_moved
tiles = [torch.rand(1, 3, 32, 32) for _ in range(4)]
print([refiner(t).shape for t in tiles], detector)
