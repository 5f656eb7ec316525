# source: https://github.com/meteofrance/py4cast/issues/6
# also: https://github.com/meteofrance/py4cast/pull/22
# kind: attribute_not_buffer
# bug: the anomaly-correlation metric stored the per-feature climatology means as a plain tensor attribute in __init__, which Lightning's move of the metric to the GPU did not touch, so update() subtracted a CPU tensor from CUDA predictions; the fix moves the climatology to the predictions' device.
# split: test19
import torch
from torchmetrics import Metric


class AnomalyCorrelation(Metric):
    def __init__(self, feature_means):
        super().__init__()
        self.climate_means = torch.as_tensor(feature_means, dtype=torch.float32)  # bug: attribute_not_buffer
        self.add_state("sum_acc", default=torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("steps", default=torch.tensor(0.0), dist_reduce_fx="sum")

    def update(self, preds, target):
        pa = preds - self.climate_means
        ta = target - self.climate_means
        num = (pa * ta).sum(dim=(1, 2))
        den = torch.sqrt((pa ** 2).sum(dim=(1, 2)) * (ta ** 2).sum(dim=(1, 2)))
        self.sum_acc += (num / den.clamp_min(1e-8)).mean()
        self.steps += 1

    def compute(self):
        return self.sum_acc / self.steps


def validate(model, loader, means, device="cuda"):
    metric = AnomalyCorrelation(means).to(device)
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            metric.update(model(x), y)
    return metric.compute()


if __name__ == "__main__":
    net = torch.nn.Linear(4, 4).cuda()
    batches = [(torch.randn(2, 16, 16, 4), torch.randn(2, 16, 16, 4)) for _ in range(3)]
    print(validate(net, batches, [0.1, 0.2, 0.3, 0.4]))
