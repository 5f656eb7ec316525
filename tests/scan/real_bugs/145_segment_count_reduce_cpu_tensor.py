# source: https://github.com/RWKV/RWKV-infctx-trainer/pull/48
# also: https://github.com/RWKV/RWKV-infctx-trainer/commit/06025aeec77d69fd3eea84609f33cca822c32633
# kind: tensor_no_device_in_forward
# bug: the LightningModule's segmented training step built the segment-count tensor for the cross-rank max-reduce with torch.Tensor([segment_count]) on the CPU while training ran on CUDA; the fix creates it on self.device when the model is on CUDA.
# split: test4
import math

import lightning as L
import torch


class SegmentedLM(L.LightningModule):
    def __init__(self, net, ctx_len=4096):
        super().__init__()
        self.net = net
        self.ctx_len = ctx_len

    def compute_loss(self, batch):
        tokens = batch["input_ids"]
        segment_count = math.ceil(tokens.shape[1] / self.ctx_len)
        count = torch.Tensor([segment_count]).to(torch.int)  # bug: tensor_no_device_in_forward
        forward_segments = self.trainer.strategy.reduce(count, reduce_op="max")
        if isinstance(forward_segments, torch.Tensor):
            forward_segments = int(forward_segments.item())
        total = tokens.new_zeros((), dtype=torch.float32)
        for i in range(forward_segments):
            chunk = tokens[:, i * self.ctx_len:(i + 1) * self.ctx_len]
            if chunk.shape[1] < 2:
                continue
            logits = self.net(chunk[:, :-1])
            total = total + torch.nn.functional.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), chunk[:, 1:].reshape(-1))
        return total / max(forward_segments, 1)

    def training_step(self, batch, batch_idx):
        loss = self.compute_loss(batch)
        self.log("train/loss", loss)
        return loss
