# source: https://github.com/TianshuoY/HKU-DASC7606-A1/issues/2
# kind: model_not_moved
# bug: the assignment notebook's "Training on GPU?" section defined `device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")` and printed it, but neither the network nor the batches in train/test/class_test were ever moved, so the whole assignment trained on the CPU while reporting cuda:0; the maintainer accepted the correction (`net = ConvolutionNet().to(device)` and `inputs, labels = inputs.to(device), labels.to(device)` in each loop).
# split: test9
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import torchvision
import torchvision.transforms as transforms

transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
trainset = torchvision.datasets.CIFAR10(root="./data", train=True, download=True, transform=transform)
trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True, num_workers=2)
testset = torchvision.datasets.CIFAR10(root="./data", train=False, download=True, transform=transform)
testloader = torch.utils.data.DataLoader(testset, batch_size=4, shuffle=False, num_workers=2)


class ConvolutionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def train(net, loader, criterion, optimizer, epochs=2):
    for epoch in range(epochs):
        running_loss = 0.0
        for i, data in enumerate(loader, 0):
            inputs, labels = data
            optimizer.zero_grad()
            loss = criterion(net(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()


def test(net, loader):
    correct = total = 0
    with torch.no_grad():
        for images, labels in loader:
            _, predicted = torch.max(net(images).data, 1)
            total += labels.size(0)
            correct += (predicted == labels).sum().item()
    return correct / total


# Training on GPU?
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
print(device)

net = ConvolutionNet()  # bug: model_not_moved
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
train(net, trainloader, criterion, optimizer)
print("Accuracy of the network on the 10000 test images:", test(net, testloader))
