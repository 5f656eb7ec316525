import torch
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, models, transforms

device = torch.device("cuda")
print("training on", device)
train_set = datasets.CIFAR10("data", train=True, download=True, transform=transforms.ToTensor())
train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=8, pin_memory=True)

model = models.resnet18(num_classes=10).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

for epoch in range(10):
    model.train()
    for images, labels in train_loader:
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            outputs = model(images)  # expect: code.inputs_not_moved
            loss = criterion(outputs, labels)  # expect: code.inputs_not_moved
        loss.backward()
        optimizer.step()
