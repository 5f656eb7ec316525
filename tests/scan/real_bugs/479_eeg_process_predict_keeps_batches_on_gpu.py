# source: https://github.com/SPOClab-ca/dn3/issues/38
# kind: other
# bug: the trainable process's predict() loop appended every input batch and every model output, still on the GPU, to Python lists before concatenating them, so evaluating a large dataset filled GPU memory; the maintainer's fix moves each batch's tensors to the CPU as it is collected (and computes the evaluation loss there).
# split: test22
from collections import OrderedDict

import torch
import torch.nn as nn
import tqdm
from torch.utils.data import DataLoader, TensorDataset


class EEGClassifier(nn.Module):
    def __init__(self, channels=20, samples=768, targets=2):
        super().__init__()
        self.conv = nn.Conv1d(channels, 32, 25, stride=4)
        self.pool = nn.AdaptiveAvgPool1d(8)
        self.fc = nn.Linear(32 * 8, targets)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


class StandardClassification:
    def __init__(self, classifier: nn.Module, lr=1e-3, cuda=None, metrics=None):
        if cuda is None:
            cuda = torch.cuda.is_available()
        self.device = torch.device("cuda" if cuda else "cpu")
        self.classifier = classifier.to(self.device)
        self.loss = nn.CrossEntropyLoss().to(self.device)
        self.metrics = OrderedDict(metrics or {})
        self.optimizer = torch.optim.SGD(self.classifier.parameters(), lr=lr, momentum=0.9, nesterov=True)

    def _get_batch(self, iterator):
        return [t.to(self.device) for t in next(iterator)]

    def forward(self, *inputs):
        return self.classifier(inputs[0])

    def calculate_loss(self, inputs, outputs):
        return self.loss(outputs, inputs[-1])

    def calculate_metrics(self, inputs, outputs):
        return OrderedDict((name, fn(inputs, outputs)) for name, fn in self.metrics.items())

    def predict(self, dataset, batch_size=1):
        self.classifier.train(False)
        loader = dataset if isinstance(dataset, DataLoader) else DataLoader(dataset, batch_size=batch_size)
        data_iterator = iter(loader)
        inputs, outputs = list(), list()
        with torch.no_grad():
            for _ in tqdm.trange(len(loader), desc="Predicting"):
                input_batch = self._get_batch(data_iterator)
                outputs.append(self.forward(*input_batch))
                inputs.append(input_batch)  # bug: other

        def package(batches):
            if isinstance(batches[0], torch.Tensor):
                return torch.cat(batches)
            return [torch.cat(b) for b in zip(*batches)]

        return package(inputs), package(outputs)

    def evaluate(self, dataset, **kwargs):
        inputs, outputs = self.predict(dataset, **kwargs)
        metrics = self.calculate_metrics(inputs, outputs)
        metrics["loss"] = self.calculate_loss(inputs, outputs).item()
        return metrics


def balanced_accuracy(inputs, outputs):
    y = inputs[-1]
    pred = outputs.argmax(-1)
    return torch.stack([(pred[y == c] == c).float().mean() for c in y.unique()]).mean().item()


if __name__ == "__main__":
    data = TensorDataset(torch.randn(20000, 20, 768), torch.randint(0, 2, (20000,)))
    process = StandardClassification(EEGClassifier(), metrics={"BAC": balanced_accuracy})
    print(process.evaluate(data, batch_size=64))
