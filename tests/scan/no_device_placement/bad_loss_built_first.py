# The loss is built before the model: the finding names the model the optimizer trains.
import torch
from torch import nn

criterion = nn.CrossEntropyLoss()
encoder = nn.Linear(16, 16)
model = nn.Sequential(encoder, nn.ReLU(), nn.Linear(16, 3))  # expect: code.no_device_placement
optimizer = torch.optim.Adam(model.parameters())

for step in range(100):
    x = torch.randn(8, 16)
    y = torch.randint(0, 3, (8,))
    loss = criterion(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
