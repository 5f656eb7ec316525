# source: https://github.com/bethgelab/foolbox/pull/24
# also: https://github.com/bethgelab/foolbox/commit/cb27d1ca9204669c6a604fe4ceecab057ee86497
# kind: inputs_not_moved
# bug: the PyTorch model wrapper's `predictions_and_gradient` moved the image batch to CUDA when `cuda=True` but built the target label tensor with `torch.from_numpy` and passed it to the cross-entropy loss on the CPU; the merged fix also calls `.cuda()` on the target when the wrapper uses CUDA.
# split: test16
import numpy as np
import torch
import torch.nn as nn


class PyTorchModel:
    def __init__(self, model, bounds, num_classes, cuda=True):
        self._model = model.cuda() if cuda else model
        self.bounds = bounds
        self._num_classes = num_classes
        self.cuda = cuda

    def batch_predictions(self, images):
        images = torch.from_numpy(images)
        if self.cuda:
            images = images.cuda()
        with torch.no_grad():
            predictions = self._model(images)
        return predictions.cpu().numpy()

    def predictions_and_gradient(self, image, label):
        target = torch.from_numpy(np.array([label]))  # bug: inputs_not_moved
        images = torch.from_numpy(image[np.newaxis])
        if self.cuda:
            images = images.cuda()
        images.requires_grad_(True)
        predictions = self._model(images)
        loss = nn.CrossEntropyLoss()(predictions, target)
        loss.backward()
        grad = images.grad.cpu().numpy().squeeze(0)
        return predictions.detach().cpu().numpy().squeeze(0), grad


def fgsm(fmodel, image, label, epsilon=0.03):
    _, grad = fmodel.predictions_and_gradient(image, label)
    lo, hi = fmodel.bounds
    return np.clip(image + epsilon * np.sign(grad), lo, hi).astype(np.float32)


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    fmodel = PyTorchModel(net.eval(), bounds=(0.0, 1.0), num_classes=10, cuda=torch.cuda.is_available())
    img = np.random.rand(3, 32, 32).astype(np.float32)
    adv = fgsm(fmodel, img, label=3)
    print(fmodel.batch_predictions(adv[np.newaxis]).argmax())
