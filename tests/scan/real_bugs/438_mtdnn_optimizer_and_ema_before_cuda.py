# source: https://github.com/namisan/mt-dnn/pull/40
# kind: optimizer_before_move
# bug: the multi-task model wrapper built its optimizer (restoring optimizer state from a checkpoint) and its EMA shadow copy from the CPU network, and train.py only called model.cuda() afterwards, so optimizer state and EMA tensors were created for parameters before the device move; the fix moves the network to CUDA inside the wrapper before building the optimizer and EMA.
# split: test20
import torch
import torch.nn as nn


class SANNetwork(nn.Module):
    def __init__(self, vocab=1000, dim=64, n_labels=3):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.scorer = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, n_labels))

    def forward(self, ids):
        return self.scorer(self.embed(ids))


class EMA:
    def __init__(self, gamma, model):
        self.gamma = gamma
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}
        self.model = model

    def update(self):
        for n, p in self.model.named_parameters():
            self.shadow[n].mul_(self.gamma).add_(p.detach(), alpha=1 - self.gamma)

    def cuda(self):
        self.shadow = {n: t.cuda() for n, t in self.shadow.items()}


class MTDNNModel:
    def __init__(self, opt, state_dict=None):
        self.config = opt
        self.network = SANNetwork()
        if state_dict:
            self.network.load_state_dict(state_dict["state"])
        self.optimizer = torch.optim.Adamax(self.network.parameters(), lr=opt["learning_rate"])  # bug: optimizer_before_move
        if state_dict and "optimizer" in state_dict:
            self.optimizer.load_state_dict(state_dict["optimizer"])
        self.ema = EMA(opt["ema_gamma"], self.network) if opt["ema_opt"] else None

    def update(self, ids, labels):
        self.network.train()
        device = next(self.network.parameters()).device
        loss = nn.functional.cross_entropy(self.network(ids.to(device)), labels.to(device))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        if self.ema is not None:
            self.ema.update()
        return loss.item()

    def cuda(self):
        self.network.cuda()
        if self.config["ema_opt"]:
            self.ema.cuda()


if __name__ == "__main__":
    opt = {"learning_rate": 5e-4, "ema_opt": 1, "ema_gamma": 0.995, "cuda": torch.cuda.is_available()}
    model = MTDNNModel(opt)
    if opt["cuda"]:
        model.cuda()
    for _ in range(5):
        print(model.update(torch.randint(0, 1000, (16, 12)), torch.randint(0, 3, (16,))))
