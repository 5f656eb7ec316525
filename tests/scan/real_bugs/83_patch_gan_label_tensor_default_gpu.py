# source: https://github.com/Project-MONAI/GenerativeModels/pull/371
# also: https://github.com/Project-MONAI/GenerativeModels/commit/4aee21a9501e29a7220ed95ee5da862dff1e92a0
# kind: other
# bug: the adversarial loss made its target label with torch.tensor(1).fill_(v).type(input.type()); the type cast picks the current CUDA device, not the input's, so on cuda:1 the label landed on cuda:0; the fix added .to(input.device).
# split: dev2
import torch
from torch import nn


class PatchGANLoss(nn.Module):
    def __init__(self, real_label: float = 1.0, fake_label: float = 0.0):
        super().__init__()
        self.real, self.fake = real_label, fake_label
        self.crit = nn.BCEWithLogitsLoss()

    def _target(self, logits: torch.Tensor, is_real: bool) -> torch.Tensor:
        fill = self.real if is_real else self.fake
        label = torch.tensor(1).fill_(fill).type(logits.type())  # bug: other
        return label.expand_as(logits)

    def forward(self, logits_list, is_real: bool):
        losses = [self.crit(l, self._target(l, is_real)) for l in logits_list]
        return torch.stack(losses).mean()


if __name__ == "__main__":
    dev = torch.device("cuda:1")
    loss = PatchGANLoss()
    print(loss([torch.randn(2, 1, 8, 8, device=dev)], is_real=True))
