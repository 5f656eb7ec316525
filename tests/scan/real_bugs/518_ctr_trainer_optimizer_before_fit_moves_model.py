# source: https://github.com/datawhalechina/torch-rechub/pull/26
# kind: optimizer_before_move
# bug: the CTR/match/multi-task trainers built their optimizer (from a user-supplied optimizer_fn, Adam by default, plus an optional scheduler) over the model parameters in __init__ while the model was still on the CPU, and only moved the model to the configured device at the start of fit(), so optimizers that create state eagerly (e.g. Adagrad) kept CPU state for the CUDA parameters; the fix wraps/moves the model to the device in __init__ before creating the optimizer and drops the move from fit().
# split: test24
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class DictDataset(Dataset):
    def __init__(self, n=512, n_items=100):
        self.user = torch.randint(0, 50, (n,))
        self.item = torch.randint(0, n_items, (n,))
        self.y = torch.randint(0, 2, (n,))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {"user_id": self.user[i], "item_id": self.item[i]}, self.y[i]


class TwoFieldCTR(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.user = nn.Embedding(50, dim)
        self.item = nn.Embedding(100, dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        h = torch.cat([self.user(x["user_id"]), self.item(x["item_id"])], dim=-1)
        return torch.sigmoid(self.mlp(h)).squeeze(-1)


class CTRTrainer:
    def __init__(self, model, optimizer_fn=torch.optim.Adagrad, optimizer_params=None,
                 n_epoch=2, device="cpu", gpus=None):
        gpus = gpus or []
        optimizer_params = optimizer_params or {"lr": 1e-2, "weight_decay": 1e-5}
        self.model = model
        self.optimizer = optimizer_fn(self.model.parameters(), **optimizer_params)  # bug: optimizer_before_move
        self.criterion = nn.BCELoss()
        self.n_epoch = n_epoch
        self.device = torch.device(device)
        if len(gpus) > 1:
            self.model = nn.DataParallel(self.model, device_ids=gpus)

    def train_one_epoch(self, loader):
        self.model.train()
        for x_dict, y in loader:
            x_dict = {k: v.to(self.device) for k, v in x_dict.items()}
            y = y.to(self.device)
            loss = self.criterion(self.model(x_dict), y.float())
            self.model.zero_grad()
            loss.backward()
            self.optimizer.step()

    def fit(self, train_loader):
        self.model.to(self.device)
        for epoch in range(self.n_epoch):
            self.train_one_epoch(train_loader)
            print("epoch", epoch, "done")


if __name__ == "__main__":
    dev = "cuda:0" if torch.cuda.is_available() else "cpu"
    trainer = CTRTrainer(TwoFieldCTR(), device=dev)
    trainer.fit(DataLoader(DictDataset(), batch_size=64, shuffle=True))
