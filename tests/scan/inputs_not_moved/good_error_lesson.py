# A lesson that shows the device-mismatch error on purpose, and says so in a comment: the author
# knows, and the next cell fixes it.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = "cuda"
model = nn.Linear(10, 2).to(device)
loss_fn = nn.CrossEntropyLoss()
loader = DataLoader(TensorDataset(torch.randn(64, 10), torch.randint(0, 2, (64,))), batch_size=8)

for X, y in loader:
    y_pred = model(X)  # model is on the GPU, the data on the CPU (this will error)
    loss = loss_fn(y_pred, y)
    loss.backward()
