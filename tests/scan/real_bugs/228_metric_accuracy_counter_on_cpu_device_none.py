# source: https://github.com/pytorch/ignite/pull/1232
# also: https://github.com/pytorch/ignite/pull/1238
# kind: cpu_accumulator
# bug: while metrics were being made to accumulate on a user-chosen device, the metrics' `device` defaulted to None, so reset() built the running counters as CPU tensors and update() added `torch.sum(correct).to(self._device)`, where `.to(None)` left the per-batch count on the accelerator (TPU/GPU) and the in-place add into the CPU counter failed with a device mismatch; the fix makes the default device the CPU, so the per-batch value is moved to the accumulator's device before it is added.
# split: test9
import torch


class Metric:
    def __init__(self, output_transform=lambda x: x, device=None):
        self._output_transform = output_transform
        self._device = device
        self.reset()

    def reset(self):
        raise NotImplementedError

    def update(self, output):
        raise NotImplementedError

    def compute(self):
        raise NotImplementedError

    def iteration_completed(self, engine_output):
        self.update(self._output_transform(engine_output))


class Accuracy(Metric):
    def __init__(self, output_transform=lambda x: x, is_multilabel=False, device=None):
        self._is_multilabel = is_multilabel
        super().__init__(output_transform=output_transform, device=device)

    def reset(self):
        self._num_correct = torch.tensor(0, device=self._device)
        self._num_examples = 0

    def update(self, output):
        y_pred, y = output[0].detach(), output[1].detach()
        indices = torch.argmax(y_pred, dim=1)
        correct = torch.eq(indices, y).view(-1)
        self._num_correct += torch.sum(correct).to(self._device)  # bug: cpu_accumulator
        self._num_examples += correct.shape[0]

    def compute(self):
        if self._num_examples == 0:
            raise RuntimeError("Accuracy must have at least one example before it can be computed.")
        return self._num_correct.item() / self._num_examples


def evaluate(model, loader, device):
    metric = Accuracy()
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            metric.iteration_completed((model(x), y))
    return metric.compute()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = torch.nn.Linear(20, 4).to(device)
    data = [(torch.randn(32, 20), torch.randint(0, 4, (32,))) for _ in range(5)]
    print(evaluate(net, data, device))
