# source: https://github.com/MicrosoftDocs/windows-ai-docs/pull/42
# also: https://github.com/MicrosoftDocs/windows-ai-docs/commit/0bdb0cfdc52be34224d28e9f7897221f2557d5ef
# kind: eval_batch_not_moved
# bug: in the Windows ML "train a PyTorch model" tutorial, train() moved the network and each training batch to cuda:0 when available, but testAccuracy(), called after every epoch, fed the test loader's CPU images (and compared CPU labels) to the CUDA model; the fix moves images and labels to the device inside testAccuracy (issue #37).
# split: test6
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Adam


class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 12, 5, padding=1)
        self.conv2 = nn.Conv2d(12, 24, 5, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc = nn.Linear(24 * 14 * 14, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv2(F.relu(self.conv1(x)))))
        return self.fc(x.flatten(1))


def test_accuracy(model, test_loader):
    model.eval()
    correct, total = 0.0, 0.0
    with torch.no_grad():
        for images, labels in test_loader:
            outputs = model(images)  # bug: eval_batch_not_moved
            _, predicted = torch.max(outputs.data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    return 100 * correct / total


def train(model, train_loader, test_loader, num_epochs):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model.to(device)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
    best = 0.0
    for epoch in range(num_epochs):
        model.train()
        for images, labels in train_loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            loss = loss_fn(model(images), labels)
            loss.backward()
            optimizer.step()
        acc = test_accuracy(model, test_loader)
        if acc > best:
            torch.save(model.state_dict(), "./best.pth")
            best = acc
    return best
