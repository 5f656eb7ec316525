# source: https://github.com/chemprop/chemprop/pull/1296
# also: https://github.com/chemprop/chemprop/commit/31103c1d4518c3f32e48f17c5fb97ca0246e28f9
# kind: tensor_no_device_in_forward
# bug: the molecular-property metrics' `update` (and the MCC losses) filled in missing per-sample weights with `torch.ones(targets.shape[0])` and no device, then multiplied them with the unreduced CUDA loss, so evaluating on the GPU without explicit weights failed; the fix creates the default weights with `device=targets.device`.
# split: test12
import torch
import torchmetrics


class WeightedMetric(torchmetrics.Metric):
    def __init__(self, task_weights=1.0):
        super().__init__()
        self.add_state("total_loss", default=torch.tensor(0.0), dist_reduce_fx="sum")
        self.add_state("num_samples", default=torch.tensor(0), dist_reduce_fx="sum")
        self.register_buffer("task_weights", torch.as_tensor(task_weights, dtype=torch.float).view(1, -1))

    def _unreduced(self, preds, targets, mask, weights, lt_mask, gt_mask):
        raise NotImplementedError

    def update(self, preds, targets, mask=None, weights=None, lt_mask=None, gt_mask=None):
        mask = torch.ones_like(targets, dtype=torch.bool) if mask is None else mask
        weights = torch.ones(targets.shape[0], dtype=torch.float) if weights is None else weights  # bug: tensor_no_device_in_forward
        lt_mask = torch.zeros_like(targets, dtype=torch.bool) if lt_mask is None else lt_mask
        gt_mask = torch.zeros_like(targets, dtype=torch.bool) if gt_mask is None else gt_mask
        loss = self._unreduced(preds, targets, mask, weights, lt_mask, gt_mask)
        self.total_loss += loss.sum()
        self.num_samples += mask.sum()

    def compute(self):
        return self.total_loss / self.num_samples


class BoundedMSE(WeightedMetric):
    def _unreduced(self, preds, targets, mask, weights, lt_mask, gt_mask):
        preds = torch.where((preds < targets) & lt_mask, targets, preds)
        preds = torch.where((preds > targets) & gt_mask, targets, preds)
        sq = (preds - targets) ** 2
        return sq * weights.view(-1, 1) * self.task_weights * mask


def validate(model, loader, device):
    metric = BoundedMSE().to(device)
    model.eval()
    with torch.no_grad():
        for graphs, targets in loader:
            graphs, targets = graphs.to(device), targets.to(device)
            metric.update(model(graphs), targets)
    return metric.compute().item()
