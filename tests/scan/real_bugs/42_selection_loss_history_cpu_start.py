# source: https://github.com/eth-easl/modyn/pull/525
# also: https://github.com/eth-easl/modyn/commit/29018c7e2a3b5a9c16b04f4874f27b2334a2b877
# kind: cpu_accumulator
# bug: the RHO-LOSS downsampler started its per-sample loss history as an empty torch.tensor([]) on the CPU and torch.cat'ed CUDA training-minus-irreducible losses onto it, which failed on the first batch; the fix created the empty history on the trainer's device.
# split: test2
import torch


class ReducibleLossSelector:
    def __init__(self, device, keep_ratio=0.5):
        self.device = device
        self.keep_ratio = keep_ratio
        self.reset()

    def reset(self):
        self.sample_ids = []
        self.history = torch.tensor([])  # bug: cpu_accumulator

    def observe(self, ids, train_loss, base_loss):
        self.sample_ids.extend(ids)
        gap = (train_loss - base_loss).detach()
        self.history = torch.cat([self.history, gap])

    def choose(self):
        k = max(1, int(len(self.sample_ids) * self.keep_ratio))
        best = torch.topk(self.history, k).indices
        return [self.sample_ids[i] for i in best.tolist()]


def select_batch(model, batch, targets, base_losses, selector):
    losses = torch.nn.functional.cross_entropy(model(batch), targets, reduction="none")
    selector.observe(list(range(len(targets))), losses, base_losses)
    return selector.choose()
