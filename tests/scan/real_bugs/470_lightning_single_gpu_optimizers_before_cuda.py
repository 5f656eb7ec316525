# source: https://github.com/Lightning-AI/pytorch-lightning/pull/554
# kind: optimizer_before_move
# bug: the trainer's single-GPU path built the optimizers from configure_optimizers() while the model was still on the CPU and only then called model.cuda(), so optimizers that allocate state eagerly (Adagrad's accumulator) kept CPU tensors and crashed on the first step with CUDA gradients; the fix moves the model to the GPU before creating the optimizers.
# split: test22
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(28 * 28, 10)

    def forward(self, x):
        return torch.relu(self.l1(x.view(x.size(0), -1)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return {"loss": F.cross_entropy(self(x), y)}

    def configure_optimizers(self):
        return torch.optim.Adagrad(self.parameters(), lr=0.02)

    def train_dataloader(self):
        ds = TensorDataset(torch.rand(512, 1, 28, 28), torch.randint(0, 10, (512,)))
        return DataLoader(ds, batch_size=32)


class MiniTrainer:
    def __init__(self, gpus=None, max_epochs=1):
        self.gpus = gpus
        self.max_epochs = max_epochs
        self.root_gpu = 0 if gpus else None
        self.on_gpu = bool(gpus) and torch.cuda.is_available()
        self.optimizers = []
        self.lr_schedulers = []

    def init_optimizers(self, optimizers):
        if isinstance(optimizers, torch.optim.Optimizer):
            return [optimizers], []
        if len(optimizers) == 2 and isinstance(optimizers[0], list):
            return optimizers
        return list(optimizers), []

    def transfer_batch_to_gpu(self, batch, gpu_id):
        return [b.cuda(gpu_id) for b in batch]

    def fit(self, model):
        if self.on_gpu:
            self.single_gpu_train(model)
        else:
            self.optimizers, self.lr_schedulers = self.init_optimizers(model.configure_optimizers())
            self.run_pretrain_routine(model)

    def single_gpu_train(self, model):
        self.optimizers, self.lr_schedulers = self.init_optimizers(model.configure_optimizers())  # bug: optimizer_before_move
        model.cuda(self.root_gpu)
        self.run_pretrain_routine(model)

    def run_pretrain_routine(self, model):
        model.train()
        loader = model.train_dataloader()
        for _ in range(self.max_epochs):
            for batch_idx, batch in enumerate(loader):
                if self.on_gpu:
                    batch = self.transfer_batch_to_gpu(batch, self.root_gpu)
                out = model.training_step(batch, batch_idx)
                out["loss"].backward()
                for opt in self.optimizers:
                    opt.step()
                    opt.zero_grad()
            for sched in self.lr_schedulers:
                sched.step()


if __name__ == "__main__":
    MiniTrainer(gpus=1).fit(LitClassifier())
