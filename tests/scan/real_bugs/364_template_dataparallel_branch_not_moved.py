# source: https://github.com/khornlund/cookiecutter-pytorch/pull/1
# also: https://github.com/khornlund/cookiecutter-pytorch/commit/bd146e49abcb5cf544170ed6e55a2b932e82744d
# kind: model_not_moved
# bug: the project template's device setup moved the model with `.to(device)` on the single-GPU and CPU paths, but on the multi-GPU path only wrapped it in `nn.DataParallel` without moving it, while the trainer moved every batch to `cuda:<first id>`, so multi-GPU training failed; the merged fix appends `.to(device)` to the DataParallel wrapper.
# split: test17
import torch
import torch.nn as nn
import torch.nn.functional as F


class MnistModel(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, 5)
        self.conv2 = nn.Conv2d(10, 20, 5)
        self.fc = nn.Linear(320, num_classes)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        return F.log_softmax(self.fc(x.flatten(1)), dim=1)


def setup_device(model, target_devices):
    available_devices = list(range(torch.cuda.device_count()))
    if not available_devices or not target_devices:
        device = torch.device("cpu")
        return model.to(device), device
    device = torch.device(f"cuda:{target_devices[0]}")
    if len(target_devices) > 1:
        model = nn.DataParallel(model, device_ids=target_devices)  # bug: model_not_moved
    else:
        model = model.to(device)
    return model, device


class Trainer:
    def __init__(self, model, optimizer, device, data_loader):
        self.model, self.optimizer = model, optimizer
        self.device, self.data_loader = device, data_loader

    def train_epoch(self):
        self.model.train()
        for data, target in self.data_loader:
            data, target = data.to(self.device), target.to(self.device)
            self.optimizer.zero_grad()
            loss = F.nll_loss(self.model(data), target)
            loss.backward()
            self.optimizer.step()


def train(cfg, data_loader):
    model, device = setup_device(MnistModel(), cfg["target_devices"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    Trainer(model, optimizer, device, data_loader).train_epoch()
