# The test called as it should be, and the function handed on as a callable (a skip condition or a
# probe to run later), which is not a truth test.
import functools

import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_mps = torch.backends.mps.is_available() and not torch.cuda.is_available()
probe = torch.cuda.is_available
checks = {"cuda": torch.cuda.is_available, "mps": torch.backends.mps.is_available}
deferred = functools.partial(torch.cuda.is_available)

model = nn.Linear(4, 2).to(device)
if probe():
    print("GPU", torch.cuda.get_device_name(0))
for name, check in checks.items():
    print(name, check())
