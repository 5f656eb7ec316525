import torch
import torch.nn as nn
from torch.nn import DataParallel as DP

model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)  # expect: code.dataparallel
model = model.cuda()
backbone = DP(nn.Linear(8, 8))  # expect: code.dataparallel
head = torch.nn.DataParallel(nn.Linear(8, 2)).cuda()  # expect: code.dataparallel
