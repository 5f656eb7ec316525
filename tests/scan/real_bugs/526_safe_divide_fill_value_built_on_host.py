# source: https://github.com/Lightning-AI/torchmetrics/pull/2640
# kind: per_step_host_alloc
# bug: the shared _safe_divide helper used by Accuracy and the other stat-score metrics built its zero-division fill value with torch.tensor(zero_division).float().to(num.device) on every call, i.e. a fresh host tensor plus a blocking host-to-device copy each time a metric was computed in the training loop, which forced a CPU/GPU sync per step; the fix builds it with the right dtype and copies it with non_blocking=True (torch.where could take the scalar directly).
# split: test25
import torch
from torch import Tensor


def _safe_divide(num: Tensor, denom: Tensor, zero_division: float = 0.0) -> Tensor:
    num = num if num.is_floating_point() else num.float()
    denom = denom if denom.is_floating_point() else denom.float()
    fill = torch.tensor(zero_division).float().to(num.device)  # bug: per_step_host_alloc
    return torch.where(denom != 0, num / denom, fill)


def _stat_scores(preds: Tensor, target: Tensor, num_classes: int):
    preds = preds.argmax(dim=-1)
    idx = torch.arange(num_classes, device=preds.device)
    p = preds.unsqueeze(-1) == idx
    t = target.unsqueeze(-1) == idx
    tp = (p & t).sum(0)
    fp = (p & ~t).sum(0)
    fn = (~p & t).sum(0)
    return tp, fp, fn


class MacroAccuracy:
    def __init__(self, num_classes: int):
        self.num_classes = num_classes

    def __call__(self, preds: Tensor, target: Tensor) -> Tensor:
        tp, fp, fn = _stat_scores(preds, target, self.num_classes)
        per_class = _safe_divide(tp, tp + fn)
        weights = torch.ones_like(per_class)
        weights[tp + fp + fn == 0] = 0.0
        return _safe_divide((weights * per_class).sum(), weights.sum())


def train(model, loader, optimizer, device):
    metric = MacroAccuracy(num_classes=10)
    model.train()
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        logits = model(x)
        loss = torch.nn.functional.cross_entropy(logits, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        acc = metric(logits.detach(), y)
    return acc


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = torch.nn.Linear(20, 10).to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    data = [(torch.randn(64, 20), torch.randint(0, 10, (64,))) for _ in range(50)]
    print(train(net, data, opt, dev))
