# source: https://github.com/JeiKeiLim/kindle/pull/4
# also: https://github.com/JeiKeiLim/kindle/commit/e9ea40adef53514d473320fafd992e7ff836ebf6
# kind: inputs_not_moved
# bug: the trainer's train and test loops moved only the images (`self.model(data.to(self.device))`) and passed the loader's CPU labels to the criterion together with CUDA logits; the merged fix moves `data` and `labels` to the device at the top of both loops.
# split: test3
import torch
from tqdm import tqdm


class Trainer:
    def __init__(self, model, criterion, optimizer, device="cuda"):
        self.model = model.to(device)
        self.criterion = criterion
        self.optimizer = optimizer
        self.device = device

    def train(self, loader, epochs=1):
        for _ in range(epochs):
            self.model.train()
            for data, labels in tqdm(loader):
                self.optimizer.zero_grad()
                out = self.model(data.to(self.device))
                loss = self.criterion(out, labels)  # bug: inputs_not_moved
                loss.backward()
                self.optimizer.step()

    @torch.no_grad()
    def test(self, loader):
        self.model.eval()
        total, correct, running = 0, 0, 0.0
        for data, labels in tqdm(loader):
            out = self.model(data.to(self.device))
            running += self.criterion(out, labels).item()  # bug: inputs_not_moved
            correct += (out.argmax(1) == labels).sum().item()
            total += labels.numel()
        return running / len(loader), correct / total
