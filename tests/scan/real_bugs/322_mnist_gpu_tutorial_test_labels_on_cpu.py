# source: https://github.com/MorvanZhou/PyTorch-Tutorial/pull/4
# also: https://github.com/MorvanZhou/PyTorch-Tutorial/commit/9fb0f5b6c68166b4000aeffaf30ae0bc5e3e8f15
# kind: eval_batch_not_moved
# bug: the GPU version of the MNIST CNN tutorial moved the held-out images to CUDA with `.cuda()` but kept the held-out labels on the CPU, so the periodic test-accuracy check compared CUDA predictions with CPU labels; the merged fix adds `.cuda()` to the test labels (and fixes the prediction's device call).
# split: test14
import torch
import torch.nn as nn
import torch.utils.data as Data
import torchvision

EPOCH = 1
BATCH_SIZE = 50
LR = 0.001

train_data = torchvision.datasets.MNIST(root="./mnist/", train=True, transform=torchvision.transforms.ToTensor(), download=True)
train_loader = Data.DataLoader(dataset=train_data, batch_size=BATCH_SIZE, shuffle=True)
test_data = torchvision.datasets.MNIST(root="./mnist/", train=False)

# evaluation set kept as whole tensors, moved to the GPU once
test_x = torch.unsqueeze(test_data.data, dim=1).type(torch.FloatTensor)[:2000].cuda() / 255.0
test_y = test_data.targets[:2000]  # bug: eval_batch_not_moved


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(1, 16, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2))
        self.conv2 = nn.Sequential(nn.Conv2d(16, 32, 5, 1, 2), nn.ReLU(), nn.MaxPool2d(2))
        self.out = nn.Linear(32 * 7 * 7, 10)

    def forward(self, x):
        x = self.conv2(self.conv1(x))
        return self.out(x.view(x.size(0), -1))


cnn = CNN()
cnn.cuda()

optimizer = torch.optim.Adam(cnn.parameters(), lr=LR)
loss_func = nn.CrossEntropyLoss()

for epoch in range(EPOCH):
    for step, (x, y) in enumerate(train_loader):
        b_x, b_y = x.cuda(), y.cuda()
        loss = loss_func(cnn(b_x), b_y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        if step % 50 == 0:
            test_output = cnn(test_x)
            pred_y = torch.max(test_output, 1)[1].data
            accuracy = torch.sum(pred_y == test_y).type(torch.FloatTensor) / test_y.size(0)
            print("Epoch:", epoch, "| train loss: %.4f" % loss.item(), "| test accuracy: %.2f" % accuracy)
