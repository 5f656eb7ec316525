# source: https://github.com/pytorch/ignite/issues/554
# kind: wrong_device_choice
# bug: the confusion-matrix metric created its accumulator on the CPU and, on the first update, converted it with `type_as(y_ohe_t)`; type_as only matches the tensor type, so a CUDA type sends the accumulator to the *current* default GPU, and with targets on another GPU (cuda:1) the in-place add failed; the fix rewrote the update to keep the accumulator on the CPU and move each batch's counts there explicitly with .to(self.confusion_matrix).
# split: test21
import torch
import torch.nn.functional as F


def to_onehot(indices, num_classes):
    return F.one_hot(indices, num_classes)


class ConfusionMatrix:
    def __init__(self, num_classes, average=None):
        self.num_classes = num_classes
        self.average = average
        self.reset()

    def reset(self):
        self.confusion_matrix = torch.zeros(self.num_classes, self.num_classes, dtype=torch.float)
        self._num_examples = 0

    def update(self, output):
        y_pred, y = output
        if y_pred.shape != y.shape:
            y_ohe_t = to_onehot(y.reshape(-1), self.num_classes).transpose(0, 1).float()
        else:
            y_ohe_t = y.transpose(0, 1).reshape(y.shape[1], -1).float()

        indices = torch.argmax(y_pred, dim=1)
        y_pred_ohe = to_onehot(indices.reshape(-1), self.num_classes).float()

        if self.confusion_matrix.type() != y_ohe_t.type():
            self.confusion_matrix = self.confusion_matrix.type_as(y_ohe_t)  # bug: wrong_device_choice

        self.confusion_matrix += torch.matmul(y_ohe_t, y_pred_ohe).float()
        self._num_examples += y_pred.shape[0]

    def compute(self):
        if self._num_examples == 0:
            raise RuntimeError("Confusion matrix must have at least one example before it can be computed.")
        if self.average == "recall":
            return self.confusion_matrix / (self.confusion_matrix.sum(dim=1) + 1e-15)
        if self.average == "precision":
            return self.confusion_matrix / (self.confusion_matrix.sum(dim=0) + 1e-15)
        return self.confusion_matrix.cpu()


def mean_iou(cm):
    m = cm.compute().float()
    iou = m.diag() / (m.sum(dim=1) + m.sum(dim=0) - m.diag() + 1e-15)
    return iou.mean().item()


if __name__ == "__main__":
    device = torch.device(f"cuda:{torch.cuda.device_count() - 1}" if torch.cuda.is_available() else "cpu")
    model = torch.nn.Conv2d(3, 5, 1).to(device)
    cm = ConfusionMatrix(num_classes=5)
    for _ in range(4):
        x = torch.randn(2, 3, 32, 32, device=device)
        y = torch.randint(0, 5, (2, 32, 32), device=device)
        with torch.no_grad():
            cm.update((model(x), y))
    print("mIoU:", mean_iou(cm))
