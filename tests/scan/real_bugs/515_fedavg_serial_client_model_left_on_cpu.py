# source: https://github.com/kitsuyaazuma/blazefl/pull/6
# kind: model_not_moved
# bug: the serial FedAvg client trainer stored the global model and built its SGD optimizer over it but never moved the model to the configured client device, so local training batches sent to CUDA met CPU weights (the sibling bug, bare data.to(device) calls whose results were dropped, had been hiding it by keeping everything on the CPU); the fix moves the model to self.device before creating the optimizer and assigns the moved batches.
# split: test24
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def serialize_model(model: nn.Module) -> torch.Tensor:
    return torch.cat([p.data.view(-1).cpu() for p in model.parameters()])


def deserialize_model(model: nn.Module, flat: torch.Tensor) -> None:
    offset = 0
    for p in model.parameters():
        n = p.numel()
        p.data.copy_(flat[offset:offset + n].view_as(p))
        offset += n


class PartitionedData:
    def __init__(self, num_clients=4, n=128):
        self.parts = [TensorDataset(torch.randn(n, 20), torch.randint(0, 3, (n,))) for _ in range(num_clients)]

    def get_dataloader(self, cid, batch_size):
        return DataLoader(self.parts[cid], batch_size=batch_size, shuffle=True)


class SerialClientTrainer:
    def __init__(self, model: nn.Module, dataset: PartitionedData, device: str,
                 epochs: int = 1, batch_size: int = 32, lr: float = 0.05):
        self.model = model  # bug: model_not_moved
        self.dataset = dataset
        self.device = device
        self.epochs = epochs
        self.batch_size = batch_size
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)
        self.criterion = nn.CrossEntropyLoss()
        self.cache = []

    def local_process(self, global_params: torch.Tensor, cid_list):
        for cid in cid_list:
            loader = self.dataset.get_dataloader(cid, self.batch_size)
            self.cache.append(self.train(global_params, loader))

    def train(self, global_params, loader):
        deserialize_model(self.model, global_params)
        self.model.train()
        seen = 0
        for _ in range(self.epochs):
            for data, target in loader:
                data = data.to(self.device)
                target = target.to(self.device)
                loss = self.criterion(self.model(data), target)
                seen += len(target)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
        return serialize_model(self.model), seen


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    net = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
    trainer = SerialClientTrainer(net, PartitionedData(), dev)
    trainer.local_process(serialize_model(net), [0, 1, 2, 3])
    print(len(trainer.cache))
