# source: https://github.com/autrainer/autrainer/pull/146
# also: https://github.com/autrainer/autrainer/commit/c63547a837e288f71ebd0d6d52835b364371178b
# kind: loaded_weights_not_moved
# bug: the trainer restored a pretrained optimizer checkpoint with torch.load(map_location="cpu") while the model's parameters were still on the CPU, so the Adam moment tensors stayed on the CPU after the model was later moved to CUDA and the first optimizer step failed; the fix loads the optimizer state with map_location set to the training device.
# split: test19
import torch
import torch.nn as nn
import torch.nn.functional as F


def load_optim_state(optimizer, state_dict, skip_last_layer=True):
    if skip_last_layer:
        keys = list(state_dict["state"].keys())
        for k in keys[-2:]:
            state_dict["state"].pop(k, None)
    optimizer.load_state_dict(state_dict)


class Trainer:
    def __init__(self, optimizer_checkpoint=None, device="cuda"):
        self.device = torch.device(device)
        self.model = nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Linear(128, 10))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        if optimizer_checkpoint:
            state = torch.load(optimizer_checkpoint, map_location="cpu", weights_only=True)  # bug: loaded_weights_not_moved
            load_optim_state(self.optimizer, state, skip_last_layer=False)

    def train(self, loader, epochs=1):
        self.model.to(self.device)
        self.model.train()
        for _ in range(epochs):
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = F.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


if __name__ == "__main__":
    warm = Trainer(device="cpu")
    warm.train([(torch.randn(4, 40), torch.randint(0, 10, (4,)))])
    torch.save(warm.optimizer.state_dict(), "/tmp/optim.pt")
    t = Trainer(optimizer_checkpoint="/tmp/optim.pt")
    t.train([(torch.randn(4, 40), torch.randint(0, 10, (4,)))])
