# source: https://github.com/Michedev/VAE_anomaly_detection/issues/10
# also: https://github.com/Michedev/VAE_anomaly_detection/commit/0a9eb14b7df226e8195c77d145a0f586ecbb6d67
# kind: to_result_discarded
# bug: the ignite training step called x.to(self.device) without assigning the result, so each batch reached the GPU model on the CPU; the fix assigns x = x.to(self.device).
# split: test4
import torch
from ignite.engine import Engine

from vae import AnomalyVAE


class Step:
    def __init__(self, model, optimizer, device=None):
        self.model = model
        self.optimizer = optimizer
        self.device = device

    def __call__(self, engine, batch):
        x = batch[0]
        if self.device:
            x.to(self.device)  # bug: to_result_discarded
        self.optimizer.zero_grad()
        out = self.model(x)
        out["loss"].backward()
        self.optimizer.step()
        return {k: v.item() for k, v in out.items()}


def fit(loader, epochs, input_size, latent_size, device="cuda"):
    model = AnomalyVAE(input_size, latent_size).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    trainer = Engine(Step(model, optimizer, device))
    trainer.run(loader, max_epochs=epochs)
    return model
