# source: https://github.com/pyannote/pyannote-audio/pull/961
# also: https://github.com/pyannote/pyannote-audio/commit/c38781751a7688b8bf93f11e8de5d83366ad5ee2
# kind: tensor_no_device_in_forward
# bug: the diarization error rate metric turned a scalar threshold into torch.tensor([threshold], dtype=preds.dtype) on the CPU and compared it with the CUDA predictions during validation, raising "Expected all tensors to be on the same device"; the fix creates the threshold tensor on preds.device.
# split: test6
from numbers import Number

import torch


def best_permutation(target, preds):
    # greedy stand-in for the Hungarian speaker mapping
    scores = torch.einsum("bsf,btf->bst", target, preds)
    order = scores.argmax(dim=2)
    return torch.gather(preds, 1, order.unsqueeze(-1).expand_as(preds))


def der_update(preds, target, threshold=0.5):
    scalar = isinstance(threshold, Number)
    if scalar:
        threshold = torch.tensor([threshold], dtype=preds.dtype)  # bug: tensor_no_device_in_forward
    mapped = best_permutation(target, preds)
    hyp = (mapped.unsqueeze(-1) > threshold).float()
    ref = target.unsqueeze(-1)
    detection = hyp.sum(1) - ref.sum(1)
    false_alarm = torch.clamp(detection, min=0).sum((0, 1))
    missed = torch.clamp(-detection, min=0).sum((0, 1))
    confusion = (((hyp != ref) * hyp).sum(1) - torch.clamp(detection, min=0)).sum((0, 1))
    total = 1.0 * target.sum()
    if scalar:
        return false_alarm[0], missed[0], confusion[0], total
    return false_alarm, missed, confusion, total


class SegmentationTask:
    def __init__(self, model):
        self.model = model

    def validation_step(self, batch, batch_idx):
        waveforms, target = batch["X"], batch["y"]
        preds = self.model(waveforms)
        fa, miss, conf, total = der_update(preds, target)
        return (fa + miss + conf) / total
