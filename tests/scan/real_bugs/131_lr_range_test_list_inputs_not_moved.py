# source: https://github.com/davidtvs/pytorch-lr-finder/pull/20
# also: https://github.com/davidtvs/pytorch-lr-finder/commit/608358276bb3578e058ed80738bffad34ed0f98f
# kind: inputs_not_moved
# bug: the learning-rate finder's move-to-device helper handled tensors, tuples and dicts but returned Python lists unchanged, so list-valued inputs stayed on the CPU and were fed to the CUDA model; the fix recurses into lists too.
# split: test4
import torch


class RangeTest:
    def __init__(self, model, optimizer, criterion, device="cuda"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device

    def _to_device(self, obj):
        if torch.is_tensor(obj):
            return obj.to(self.device)
        if isinstance(obj, tuple):
            return tuple(self._to_device(o) for o in obj)
        if isinstance(obj, dict):
            return {k: self._to_device(v) for k, v in obj.items()}
        return obj  # bug: inputs_not_moved

    def step(self, batch):
        inputs, targets = batch
        inputs = self._to_device(inputs)
        targets = self._to_device(targets)
        self.optimizer.zero_grad()
        outputs = self.model(*inputs) if isinstance(inputs, (list, tuple)) else self.model(inputs)
        loss = self.criterion(outputs, targets)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def run(self, loader, lrs):
        history = []
        for lr, batch in zip(lrs, loader):
            for group in self.optimizer.param_groups:
                group["lr"] = lr
            history.append(self.step(batch))
        return history
