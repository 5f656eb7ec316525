# The same loads with map_location, a load under a test of the device, a load of what the same script
# saved, and a load in a try whose except retries on the CPU: none is reported.
import torch
from torch import nn


def load_denoiser(model, checkpoint, device="cpu"):
    model.load_state_dict(torch.load(checkpoint, map_location=device))
    return model.to(device)


def load_for_gpu(model, checkpoint):
    if torch.cuda.is_available():
        model.load_state_dict(torch.load(checkpoint))
        return model.cuda()
    return None


def train_and_reload(model, data, epochs, best_path="best.pt"):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(epochs):
        for x, y in data:
            loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        torch.save(model.state_dict(), best_path)
    model.load_state_dict(torch.load(best_path))
    return model


def load_anyhow(model, checkpoint):
    try:
        state = torch.load(checkpoint)
    except RuntimeError:
        state = torch.load(checkpoint, map_location="cpu")
    model.load_state_dict(state)
    return model
