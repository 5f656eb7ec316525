import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: code.silent_cpu_fallback
model = nn.Linear(10, 2).to(device)
