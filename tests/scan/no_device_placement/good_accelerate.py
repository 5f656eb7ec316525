import torch
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader

accelerator = Accelerator(mixed_precision="bf16")
model = nn.Linear(32, 2)
optimizer = torch.optim.Adam(model.parameters())
loader = DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 32), torch.randint(0, 2, (64,))), batch_size=8, num_workers=2)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x), y)
    accelerator.backward(loss)
    optimizer.step()
    optimizer.zero_grad()
