# source: https://github.com/sraashis/easytorch/pull/257
# also: https://github.com/sraashis/easytorch/commit/a201db4b5a161d9a5c55fabaa15f039f72f1fa6b
# kind: cpu_accumulator
# bug: the framework's confusion-matrix metric took a `device` argument and built each batch's counts on it, but its running matrix was created (and reset) with `torch.zeros(n, n)` on the CPU, so accumulating GPU batch counts into it failed or forced host round trips; the merged fix creates the accumulator with `device=self.device`.
# split: test15
import torch


class Metric:
    def __init__(self, device="cpu"):
        self.device = device
        self.eps = 1e-5


class ConfusionMatrix(Metric):
    def __init__(self, num_classes, device="cpu"):
        super().__init__(device=device)
        self.num_classes = num_classes
        self.matrix = torch.zeros(num_classes, num_classes).float()  # bug: cpu_accumulator

    def reset(self):
        self.matrix = torch.zeros(self.num_classes, self.num_classes).float()

    def add(self, pred, true):
        pred = pred.clone().long().reshape(-1)
        true = true.clone().long().reshape(-1)
        counts = torch.sparse_coo_tensor(
            torch.stack([pred, true]).to(self.device),
            torch.ones_like(pred).float().to(self.device),
            (self.num_classes, self.num_classes)).to_dense()
        self.matrix += counts

    def accuracy(self):
        return self.matrix.trace().item() / max(self.matrix.sum().item(), self.eps)


def evaluate(model, loader, num_classes):
    device = next(model.parameters()).device
    metric = ConfusionMatrix(num_classes, device=device)
    model.eval()
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            metric.add(model(images).argmax(1), labels)
    return metric.accuracy()
