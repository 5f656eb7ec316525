import torch


class Trainer:
    def __init__(self, model, optimizer, device):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device

    def _prepare(self, inputs):
        return {k: v.to(self.device) if torch.is_tensor(v) else v for k, v in inputs.items()}

    def training_step(self, inputs):
        inputs = self._prepare(inputs)
        loss = self._loss(inputs)
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def _loss(self, inputs):
        return self.model(inputs)["loss"]  # called by training_step with what it moved

    def evaluation_step(self, inputs):
        inputs = self._prepare(inputs)
        with torch.no_grad():
            return self.model(inputs)["loss"]
