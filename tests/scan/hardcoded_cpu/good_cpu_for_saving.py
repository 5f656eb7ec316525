import torch
import torch.nn as nn

device = torch.device("cuda")
model = nn.Linear(128, 10)
state = torch.load("ckpt.pt", map_location="cpu")  # loading on the CPU is right when the model moves after
model.load_state_dict(state)
model.to(device)
metrics_device = "cpu"  # a CPU tensor for bookkeeping, not where the model runs
history = torch.zeros(100, device=metrics_device)
torch.save(model.cpu().state_dict(), "final.pt")
