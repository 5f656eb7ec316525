# Near miss: nothing is on a GPU, so nothing is "not moved" (no_device_placement is another rule).
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(8, 1)
loader = DataLoader(TensorDataset(torch.randn(32, 8), torch.randn(32, 1)), batch_size=4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
