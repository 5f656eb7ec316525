# source: https://github.com/pytorch/benchmark/issues/94
# also: https://github.com/pytorch/benchmark/commit/690e725fb3d873d5f0426f2a8598b735b8990b8a
# kind: model_not_moved
# bug: a benchmark wrapper accepted a `device` argument and stored it, but built the network and its example inputs without moving them, so the "cuda" benchmark silently measured the CPU; the fix moves the network to `device` and creates the example inputs and the random targets there.
# split: test15
import torch
import torch.nn as nn


class InvertedResidual(nn.Module):
    def __init__(self, c_in, c_out, expand=4, stride=1):
        super().__init__()
        hidden = c_in * expand
        self.use_res = stride == 1 and c_in == c_out
        self.block = nn.Sequential(
            nn.Conv2d(c_in, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.Hardswish(),
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.Hardswish(),
            nn.Conv2d(hidden, c_out, 1, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        y = self.block(x)
        return x + y if self.use_res else y


class SmallMobileNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish())
        self.blocks = nn.Sequential(InvertedResidual(16, 24, stride=2), InvertedResidual(24, 24),
                                    InvertedResidual(24, 40, stride=2), InvertedResidual(40, 40))
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(40, num_classes))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


class BenchmarkModel:
    def __init__(self, device="cpu", jit=False):
        self.device = device
        self.jit = jit
        self.model = SmallMobileNet()  # bug: model_not_moved
        if self.jit:
            self.model = torch.jit.script(self.model)
        self.example_inputs = (torch.randn(1, 3, 224, 224),)

    def get_module(self):
        return self.model, self.example_inputs

    def train(self, niter=1):
        optimizer = torch.optim.RMSprop(self.model.parameters(), lr=0.064)
        loss = nn.CrossEntropyLoss()
        for _ in range(niter):
            optimizer.zero_grad()
            pred = self.model(*self.example_inputs)
            y = torch.empty(pred.shape[0], dtype=torch.long).random_(pred.shape[1])
            loss(pred, y).backward()
            optimizer.step()

    def eval(self, niter=1):
        with torch.no_grad():
            for _ in range(niter):
                self.model(*self.example_inputs)


if __name__ == "__main__":
    bench = BenchmarkModel(device="cuda" if torch.cuda.is_available() else "cpu")
    bench.train(niter=3)
