# source: https://github.com/victoresque/pytorch-template/pull/83
# kind: optimizer_before_move
# bug: the training template built the optimizer from the freshly constructed (CPU) model in train.py and only moved the model to the GPU later inside BaseTrainer, so the optimizer was created against parameters before the device move (the reporter saw GPU utilisation fluctuate); the fix prepares the device and moves/wraps the model in train.py before creating the optimizer.
# split: test20
import torch
import torch.nn as nn
import torch.nn.functional as F


class MnistModel(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, 5)
        self.conv2 = nn.Conv2d(10, 20, 5)
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, num_classes)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        return F.log_softmax(self.fc2(F.relu(self.fc1(x.flatten(1)))), dim=1)


class BaseTrainer:
    def __init__(self, model, criterion, optimizer, n_gpu):
        self.device, device_ids = self._prepare_device(n_gpu)
        self.model = model.to(self.device)
        if len(device_ids) > 1:
            self.model = nn.DataParallel(model, device_ids=device_ids)
        self.criterion = criterion
        self.optimizer = optimizer

    def _prepare_device(self, n_gpu_use):
        n_gpu = torch.cuda.device_count()
        n_gpu_use = min(n_gpu_use, n_gpu)
        device = torch.device("cuda:0" if n_gpu_use > 0 else "cpu")
        return device, list(range(n_gpu_use))


class Trainer(BaseTrainer):
    def __init__(self, model, criterion, optimizer, n_gpu, data_loader):
        super().__init__(model, criterion, optimizer, n_gpu)
        self.data_loader = data_loader

    def train_epoch(self):
        self.model.train()
        for data, target in self.data_loader:
            data, target = data.to(self.device), target.to(self.device)
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(data), target)
            loss.backward()
            self.optimizer.step()


def main(n_gpu=1):
    model = MnistModel()
    trainable_params = filter(lambda p: p.requires_grad, model.parameters())
    optimizer = torch.optim.Adam(trainable_params, lr=0.001)  # bug: optimizer_before_move
    loader = [(torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(4)]
    trainer = Trainer(model, F.nll_loss, optimizer, n_gpu, loader)
    trainer.train_epoch()


if __name__ == "__main__":
    main()
