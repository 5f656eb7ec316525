# source: https://github.com/aai-institute/pyDVL/issues/569
# also: https://github.com/aai-institute/pyDVL/pull/570
# also: https://github.com/aai-institute/pyDVL/commit/cafa32a117a76cb47d57c70c9460505c93f75d3d
# kind: inputs_not_moved
# bug: EkfacInfluence.fit() ran the (CUDA) model over the user's DataLoader to collect K-FAC statistics but called self.model(x) on the loader's CPU batches, unlike the other influence methods that move x and y to model_device first; the fix moves each batch (and the stored factors) to self.model_device.
# split: test8
import torch
from torch.utils.data import DataLoader


def empirical_ce(logits):
    probs = torch.softmax(logits, dim=-1)
    sampled = torch.multinomial(probs, 1).squeeze(-1)
    return torch.nn.functional.cross_entropy(logits, sampled)


class KfacInfluence:
    def __init__(self, model, progress=False):
        self.model = model
        self.progress = progress
        self.factors = {}

    @property
    def model_device(self):
        return next(self.model.parameters()).device

    def fit(self, data: DataLoader):
        grads_in, grads_out = {}, {}
        hooks = [m.register_full_backward_hook(lambda mod, gi, go, name=n: grads_out.setdefault(name, go[0]))
                 for n, m in self.model.named_modules() if isinstance(m, torch.nn.Linear)]
        n_seen = 0
        for x, _ in data:
            n_seen += x.shape[0]
            logits = self.model(x)  # bug: inputs_not_moved
            loss = empirical_ce(logits)
            loss.backward()
        for h in hooks:
            h.remove()
        self.factors = {k: v.T @ v / n_seen for k, v in grads_out.items()}
        return self

    def influences(self, x_test, y_test, x, y):
        g_test = self._loss_grad(x_test.to(self.model_device), y_test.to(self.model_device))
        g = self._loss_grad(x.to(self.model_device), y.to(self.model_device))
        return g_test @ g.T

    def _loss_grad(self, x, y):
        loss = torch.nn.functional.cross_entropy(self.model(x), y)
        return torch.cat([g.flatten() for g in torch.autograd.grad(loss, list(self.model.parameters()))])[None]


if __name__ == "__main__":
    net = torch.nn.Sequential(torch.nn.Linear(784, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)).to("cuda")
    ds = torch.utils.data.TensorDataset(torch.rand(512, 784), torch.randint(0, 10, (512,)))
    KfacInfluence(net).fit(DataLoader(ds, batch_size=64))
