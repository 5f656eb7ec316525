# Compatibility code for PyTorch before 2.4, where torch.amp.GradScaler did not exist yet.
import torch

try:
    from torch.amp import GradScaler
except ImportError:
    from torch.cuda.amp import GradScaler

if hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler"):
    scaler = torch.amp.GradScaler("cuda")
else:
    scaler = torch.cuda.amp.GradScaler()

TORCH_GE_2_4 = tuple(int(x) for x in torch.__version__.split(".")[:2]) >= (2, 4)
autocast = torch.amp.autocast("cuda") if TORCH_GE_2_4 else torch.cuda.amp.autocast()
other = GradScaler("cuda")
