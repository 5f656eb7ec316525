# source: https://github.com/huggingface/diffusers/pull/2382
# also: https://github.com/huggingface/diffusers/commit/ca980fd0d1003407dbab7300ce15b0af2ded3bd9
# kind: loaded_weights_not_moved
# bug: the text-to-image training script moved its EMA copy to the accelerator device before training, but the checkpoint-resume hook rebuilt the EMA from the saved folder (on the CPU) and loaded its state into the EMA object without moving it back, so the next EMA step mixed CPU shadow weights with CUDA parameters; the fix calls `.to(accelerator.device)` after loading.
# split: test18
import copy
import os

import torch
import torch.nn as nn


class EMA:
    def __init__(self, params, decay=0.9999):
        self.shadow = [p.detach().clone() for p in params]
        self.decay = decay
        self.step_count = 0

    @classmethod
    def from_folder(cls, path, model_cls):
        model = model_cls()
        model.load_state_dict(torch.load(os.path.join(path, "ema.pt"), map_location="cpu"))
        return cls(model.parameters())

    def state_dict(self):
        return {"shadow": self.shadow, "decay": self.decay, "step_count": self.step_count}

    def load_state_dict(self, state):
        state = copy.deepcopy(state)
        self.decay = state["decay"]
        self.step_count = state["step_count"]
        self.shadow = state["shadow"]

    def to(self, device):
        self.shadow = [s.to(device) for s in self.shadow]

    @torch.no_grad()
    def step(self, params):
        self.step_count += 1
        for s, p in zip(self.shadow, params):
            s.sub_((1 - self.decay) * (s - p))


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 64, 3, padding=1), nn.SiLU(), nn.Conv2d(64, 4, 3, padding=1))

    def forward(self, x):
        return self.net(x)


def main(resume_dir=None, steps=10):
    device = torch.device("cuda")
    model = Denoiser().to(device)
    ema = EMA(Denoiser().parameters())
    ema.to(device)

    def load_hook(input_dir):
        loaded = EMA.from_folder(os.path.join(input_dir, "unet_ema"), Denoiser)
        ema.load_state_dict(loaded.state_dict())  # bug: loaded_weights_not_moved
        del loaded

    if resume_dir is not None:
        load_hook(resume_dir)
        model.load_state_dict(torch.load(os.path.join(resume_dir, "model.pt"), map_location=device))

    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for _ in range(steps):
        x = torch.randn(2, 4, 32, 32, device=device)
        loss = nn.functional.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.step(model.parameters())
