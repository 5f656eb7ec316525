# source: https://github.com/mittagessen/kraken/pull/799
# kind: inputs_not_moved
# bug: when running the PPOCR-style line recognizer on the GPU the per-line sequence lengths were converted to a tensor without a device and passed to the CUDA network, giving "Expected all tensors to be on the same device, cuda:0 and cpu"; the fix adds the device argument to the conversion call.
# split: test23
from typing import List, Sequence

import torch
import torch.nn as nn
import torch.nn.functional as F


class SVTRLikeNet(nn.Module):
    def __init__(self, n_classes=96, hidden=128):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 32, 3, stride=(2, 1), padding=1), nn.ReLU(),
            nn.Conv2d(32, hidden, 3, stride=(2, 1), padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d((1, None)),
        )
        self.head = nn.Linear(hidden, n_classes)

    def forward(self, x, seq_lens):
        feats = self.backbone(x).squeeze(2).transpose(1, 2)
        logits = self.head(feats)
        steps = torch.arange(logits.shape[1], device=logits.device)
        mask = steps[None, :] < seq_lens[:, None]
        logits = logits.masked_fill(~mask[..., None], float("-inf"))
        return F.log_softmax(logits, dim=-1), seq_lens


class PPOCRRecognizer:
    def __init__(self, net: nn.Module, codec: Sequence[str], device: str = "cpu"):
        self.device = torch.device(device)
        self.net = net.to(self.device).eval()
        self.codec = codec

    def _batch(self, lines: List[torch.Tensor]):
        max_w = max(ln.shape[-1] for ln in lines)
        batch = torch.stack([F.pad(ln, (0, max_w - ln.shape[-1])) for ln in lines])
        lens = [ln.shape[-1] for ln in lines]
        return batch, lens

    def _decode(self, log_probs, lens):
        out = []
        for lp, n in zip(log_probs, lens.tolist()):
            best = lp[:n].argmax(-1).tolist()
            chars, prev = [], 0
            for b in best:
                if b != prev and b != 0:
                    chars.append(self.codec[b])
                prev = b
            out.append("".join(chars))
        return out

    @torch.no_grad()
    def predict(self, lines: List[torch.Tensor]) -> List[str]:
        batch, lens = self._batch(lines)
        batch = batch.to(self.device)
        seq_lens = torch.tensor(lens, dtype=torch.long)  # bug: inputs_not_moved
        log_probs, out_lens = self.net(batch, seq_lens)
        return self._decode(log_probs.cpu(), out_lens.cpu())


if __name__ == "__main__":
    codec = ["<blank>"] + [chr(i) for i in range(32, 127)]
    rec = PPOCRRecognizer(SVTRLikeNet(n_classes=len(codec)), codec,
                          device="cuda" if torch.cuda.is_available() else "cpu")
    lines = [torch.rand(1, 32, 200), torch.rand(1, 32, 150)]
    print(rec.predict(lines))
