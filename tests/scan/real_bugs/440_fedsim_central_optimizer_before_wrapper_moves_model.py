# source: https://github.com/apple/pfl-research/pull/76
# kind: optimizer_before_move
# bug: the benchmark scripts built the central optimizer (e.g. Adagrad) from the freshly built CPU model and only then handed it to the model wrapper, whose constructor moved the model to the default GPU, so optimizer state created eagerly stayed on the CPU and the step crashed; the fix moves the model to the default device before collecting parameters and creating the optimizer.
# split: test21
import argparse

import torch
import torch.nn as nn


def default_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SmallConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


class FederatedModel:
    def __init__(self, model, local_optimizer_create, central_optimizer):
        self._model = model.to(default_device())
        self._local_optimizer_create = local_optimizer_create
        self._central_optimizer = central_optimizer

    def local_train(self, batches, lr):
        opt = self._local_optimizer_create(self._model.parameters(), lr=lr)
        for x, y in batches:
            x, y = x.to(default_device()), y.to(default_device())
            opt.zero_grad()
            nn.functional.cross_entropy(self._model(x), y).backward()
            opt.step()

    def apply_central_update(self):
        self._central_optimizer.step()
        self._central_optimizer.zero_grad()


def build_model(args):
    return SmallConvNet(args.num_classes)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_classes", type=int, default=10)
    parser.add_argument("--learning_rate", type=float, default=0.1)
    parser.add_argument("--local_learning_rate", type=float, default=0.01)
    arguments = parser.parse_args([])

    pytorch_model = build_model(arguments)

    params = [p for p in pytorch_model.parameters() if p.requires_grad]
    central_optimizer = torch.optim.Adagrad(params, arguments.learning_rate)  # bug: optimizer_before_move

    model = FederatedModel(model=pytorch_model,
                           local_optimizer_create=torch.optim.SGD,
                           central_optimizer=central_optimizer)

    batches = [(torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))) for _ in range(3)]
    for _ in range(2):
        model.local_train(batches, arguments.local_learning_rate)
        for p in params:
            p.grad = torch.zeros_like(p)
        model.apply_central_update()


if __name__ == "__main__":
    main()
