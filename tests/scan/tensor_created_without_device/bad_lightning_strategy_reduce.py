# A count made on the CPU and reduced across ranks through Lightning's strategy: under DDP with
# NCCL the collective gets a host tensor and fails.
import lightning as L
import torch


class ChunkedLM(L.LightningModule):
    def __init__(self, net, window=1024):
        super().__init__()
        self.net = net
        self.window = window

    def training_step(self, batch, batch_idx):
        ids = batch["input_ids"]
        n = torch.tensor([(ids.shape[1] + self.window - 1) // self.window])  # expect: code.tensor_created_without_device
        n = int(self.trainer.strategy.reduce(n, reduce_op="max").item())
        loss = ids.new_zeros((), dtype=torch.float32)
        for i in range(n):
            part = ids[:, i * self.window:(i + 1) * self.window]
            loss = loss + self.net(part).mean()
        return loss / n
