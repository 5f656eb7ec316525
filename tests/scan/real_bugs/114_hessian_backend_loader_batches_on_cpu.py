# source: https://github.com/tfjgeorge/nngeometry/pull/105
# also: https://github.com/tfjgeorge/nngeometry/commit/da3c325aae9b942e4f278ec97cc80b7a134a6d0b
# kind: inputs_not_moved
# bug: the torch.func Hessian backend read the device of the model's parameters and allocated its result there, but passed each loader batch's inputs and targets to `functional_call` on the CPU; the fix moves `d[0]` and `d[1]` to that device.
# split: test3
import torch
from torch.utils.data import DataLoader


class HessianBackend:
    def __init__(self, model, loss_fn):
        self.model = model
        self.loss_fn = loss_fn
        self.params = {k: v for k, v in model.named_parameters() if v.requires_grad}

    def _device(self):
        devices = {p.device for p in self.params.values()}
        assert len(devices) == 1
        return devices.pop()

    def hessian(self, dataset, batch_size=32):
        device = self._device()
        n = sum(p.numel() for p in self.params.values())
        H = torch.zeros((n, n), device=device)
        loader = DataLoader(dataset, batch_size=batch_size)

        def loss_of(params, x, y):
            out = torch.func.functional_call(self.model, params, (x,))
            return self.loss_fn(out, y)

        for batch in loader:
            inputs = batch[0]
            h = torch.func.hessian(loss_of)(self.params, inputs, batch[1])  # bug: inputs_not_moved
            blocks = [torch.cat([h[a][b].reshape(self.params[a].numel(), -1) for b in self.params], 1)
                      for a in self.params]
            H += torch.cat(blocks, 0).detach()
        return H / len(loader)
