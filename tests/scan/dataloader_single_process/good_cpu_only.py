# Near miss: a CPU-only job has no GPU to starve.
import torch
from torch.utils.data import DataLoader, TensorDataset

ds = TensorDataset(torch.randn(100, 3))
for (batch,) in DataLoader(ds, batch_size=10):
    print(batch.mean())
