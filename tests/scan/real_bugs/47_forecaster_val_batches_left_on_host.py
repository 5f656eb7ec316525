# source: https://github.com/unit8co/darts/pull/449
# also: https://github.com/unit8co/darts/issues/492
# kind: eval_batch_not_moved
# bug: the forecasting model's fit loop moved each training batch to the model's device, but the validation loop passed the validation batch straight to the CUDA model; the fix moved validation inputs and targets too (released in 0.11).
# split: test2
import torch


class Forecaster:
    def __init__(self, net, device):
        self.device = device
        self.net = net.to(device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        self.crit = torch.nn.MSELoss()

    def _train_epoch(self, loader):
        self.net.train()
        for past, future in loader:
            past, future = past.to(self.device), future.to(self.device)
            loss = self.crit(self.net(past), future)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

    def _val_epoch(self, loader):
        self.net.eval()
        total = 0.0
        with torch.no_grad():
            for past, future in loader:
                total += self.crit(self.net(past), future).item()  # bug: eval_batch_not_moved
        return total / max(1, len(loader))

    def fit(self, train_loader, val_loader, epochs=3):
        for _ in range(epochs):
            self._train_epoch(train_loader)
            print(self._val_epoch(val_loader))
