# source: https://github.com/NVIDIA-Merlin/Transformers4Rec/pull/325
# also: https://github.com/NVIDIA-Merlin/Transformers4Rec/commit/083684baade456250dad6187f3e6a6cfb0659841
# kind: eval_batch_not_moved
# bug: the recommender trainer's training step moved every batch to the model's device, but prediction_step (used by evaluation) passed the dataloader's CPU tensors straight to the CUDA model, which crashed evaluation with the PyArrow loader; the fix calls _prepare_inputs in prediction_step as well.
# split: test5
import torch


class SessionTrainer:
    def __init__(self, model, optimizer, device):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.device = device

    def _prepare_inputs(self, inputs):
        return {k: v.to(self.device) if torch.is_tensor(v) else v for k, v in inputs.items()}

    def training_step(self, inputs):
        self.model.train()
        inputs = self._prepare_inputs(inputs)
        out = self.model(inputs, training=True)
        out["loss"].backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return out["loss"].detach()

    def prediction_step(self, inputs):
        self.model.eval()
        with torch.no_grad():
            out = self.model(inputs, testing=True)  # bug: eval_batch_not_moved
        return out["loss"], out["predictions"], out["labels"]

    def fit(self, train_loader, eval_loader, epochs=1):
        for _ in range(epochs):
            for batch in train_loader:
                self.training_step(batch)
            losses = [self.prediction_step(batch)[0].item() for batch in eval_loader]
            print("eval loss", sum(losses) / max(len(losses), 1))
