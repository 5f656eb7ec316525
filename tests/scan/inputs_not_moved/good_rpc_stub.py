# A remote stub takes host tensors: it is no model on this process's GPU.
import torch
from torch.utils.data import DataLoader


class Worker:
    def __init__(self, stub, dataset, device):
        self.stub = stub
        self.loader = DataLoader(dataset, batch_size=32, num_workers=2)
        self.device = device

    def run(self):
        for images, labels in self.loader:
            labels = labels.to(self.device)
            reply = self.remote(images)
            print(reply, labels)

    def remote(self, images):
        return self.stub(images)
