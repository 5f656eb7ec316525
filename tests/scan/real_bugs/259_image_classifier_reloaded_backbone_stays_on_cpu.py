# source: https://github.com/DashAISoftware/dashAI/pull/679
# kind: loaded_weights_not_moved
# bug: the image-classifier models chose `self.device` as CUDA when available and moved each prediction batch there, but a classifier restored from disk was rebuilt from `torch.load(..., map_location="cpu")` and `predict` never moved the network, so predicting with a saved model in a fresh process failed with "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same"; the fix adds `self.model.to(self.device)` before the evaluation loop in every image classifier's `predict`.
# split: test11
import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import models


class TorchvisionImageClassifier:
    def __init__(self, num_classes: int = 10, epochs: int = 5, batch_size: int = 32, lr: float = 1e-3):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.num_classes = num_classes
        self.epochs = epochs
        self.batch_size = batch_size
        self.lr = lr
        self.model = None

    def _build(self):
        net = models.resnet18(weights=None)
        net.fc = nn.Linear(net.fc.in_features, self.num_classes)
        return net

    def fit(self, dataset):
        self.model = self._build().to(self.device)
        opt = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        loss_fn = nn.CrossEntropyLoss()
        loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=True)
        self.model.train()
        for _ in range(self.epochs):
            for images, labels in loader:
                images, labels = images.to(self.device), labels.to(self.device)
                loss = loss_fn(self.model(images), labels)
                opt.zero_grad()
                loss.backward()
                opt.step()
        return self

    def save(self, path: str):
        torch.save({"state_dict": self.model.state_dict(), "num_classes": self.num_classes}, path)

    @classmethod
    def load(cls, path: str):
        ckpt = torch.load(path, map_location="cpu")
        obj = cls(num_classes=ckpt["num_classes"])
        obj.model = obj._build()
        obj.model.load_state_dict(ckpt["state_dict"])  # bug: loaded_weights_not_moved
        return obj

    def predict(self, dataset):
        loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=False)
        self.model.eval()
        probs = []
        with torch.no_grad():
            for images, _ in loader:
                images = images.to(self.device)
                probs.append(torch.softmax(self.model(images), dim=1).cpu())
        return torch.cat(probs)
