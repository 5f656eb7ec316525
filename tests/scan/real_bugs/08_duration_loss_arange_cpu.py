# source: https://github.com/mozilla/TTS/pull/549
# also: https://github.com/mozilla/TTS/issues/473
# kind: tensor_no_device_in_forward
# bug: A TTS loss built its length mask with torch.arange(max_len) where max_len came from a CUDA tensor; arange returned a CPU tensor that was compared with the CUDA lengths, and the merged PR restored the earlier fix for issue 473 so the mask is made on the lengths' device.
# split: test
import torch
import torch.nn as nn


class MaskedL1(nn.Module):
    def forward(self, pred, target, lengths):
        longest = lengths.max()
        steps = torch.arange(longest)  # bug: tensor_no_device_in_forward
        mask = steps.unsqueeze(0) < lengths.unsqueeze(1)
        mask = mask.unsqueeze(2).float()
        diff = (pred[:, : mask.shape[1]] - target[:, : mask.shape[1]]).abs()
        return (diff * mask).sum() / mask.sum()


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    crit = MaskedL1()
    p = torch.randn(2, 9, 80, device=dev)
    t = torch.randn(2, 9, 80, device=dev)
    print(crit(p, t, torch.tensor([9, 6], device=dev)))
