# source: https://github.com/catalyst-team/catalyst/pull/322
# kind: loaded_weights_not_moved
# bug: when a stage asked to resume the optimizer from the previous stage, the experiment config loaded the best checkpoint with a CPU map_location and unpacked the optimizer state into the new optimizer as-is, so the Adam moments stayed on the CPU while training ran on CUDA and the multi-stage check crashed; the fix moves every loaded optimizer state tensor to the training device after unpacking.
# split: test24
from collections import OrderedDict

import torch
import torch.nn as nn

OPTIMIZERS = {"Adam": torch.optim.Adam, "SGD": torch.optim.SGD}


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def load_checkpoint(path):
    return torch.load(path, map_location=lambda storage, loc: storage)


def unpack_checkpoint(checkpoint, model=None, optimizer=None):
    if model is not None:
        model.load_state_dict(checkpoint["model_state_dict"])
    if optimizer is not None:
        optimizer.load_state_dict(checkpoint["optimizer_state_dict"])


class StagedExperiment:
    def __init__(self, logdir, stages):
        self.logdir = logdir
        self.stages = stages

    def get_model(self):
        return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))

    def _get_optimizer(self, *, model_params, name="Adam", **params):
        resume = params.pop("load_from_previous_stage", False)
        optimizer = OPTIMIZERS[name](model_params, **params)
        if resume:
            checkpoint = load_checkpoint(f"{self.logdir}/checkpoints/best_full.pth")
            unpack_checkpoint(checkpoint, optimizer=optimizer)  # bug: loaded_weights_not_moved
            for key, value in params.items():
                for group in optimizer.param_groups:
                    group[key] = value
        return optimizer

    def get_optimizer(self, stage, model):
        params = dict(self.stages[stage].get("optimizer_params", {}))
        return self._get_optimizer(model_params=model.parameters(), **params)


def run_stage(experiment, stage, loader):
    model = experiment.get_model()
    optimizer = experiment.get_optimizer(stage, model)
    device = get_device()
    model.to(device)
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    stages = OrderedDict(stage2={"optimizer_params": {"lr": 1e-3, "load_from_previous_stage": True}})
    exp = StagedExperiment("./logs", stages)
    data = [(torch.randn(8, 16), torch.randint(0, 2, (8,)))]
    run_stage(exp, "stage2", data)
