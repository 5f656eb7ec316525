# source: https://github.com/rikeda71/TorchCRF/pull/13
# also: https://github.com/rikeda71/TorchCRF/issues/12
# kind: other
# bug: the CRF layer decided in __init__ whether to use the GPU (`self._use_gpu = torch.cuda.is_available() and use_gpu`) and, inside the forward's per-timestep loops, moved each mask slice with a bare `.cuda()` when that flag was set, so the mask always went to the default GPU whatever device the emissions were on; under DataParallel the replicas on cuda:1.. received masks on cuda:0 and failed (and a CRF run on the CPU of a GPU machine got CUDA masks); the fix (PR #13, "multi_gpu support") reads the device from the forward input and uses `.to(h.device)`.
# split: test9
import argparse
from typing import List, Optional

import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, num_labels: int, pad_idx: Optional[int] = None, use_gpu: bool = True) -> None:
        super().__init__()
        self.num_labels = num_labels
        self._use_gpu = torch.cuda.is_available() and use_gpu
        self.trans_matrix = nn.Parameter(torch.empty(num_labels, num_labels))
        self.start_trans = nn.Parameter(torch.empty(num_labels))
        self.end_trans = nn.Parameter(torch.empty(num_labels))
        nn.init.uniform_(self.trans_matrix, -0.1, 0.1)
        nn.init.uniform_(self.start_trans, -0.1, 0.1)
        nn.init.uniform_(self.end_trans, -0.1, 0.1)

    def forward(self, h: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self._numerator(h, labels, mask) - self._denominator(h, mask)

    def _mask_at(self, mask: torch.Tensor, t: int) -> torch.Tensor:
        mask_t = mask[:, t]
        mask_t = mask_t.cuda() if self._use_gpu else mask_t  # bug: other
        return mask_t

    def _denominator(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        _, seq_len, _ = h.size()
        trans = self.trans_matrix.unsqueeze(0)
        score = self.start_trans + h[:, 0]
        for t in range(1, seq_len):
            mask_t = self._mask_at(mask, t).unsqueeze(1)
            score_t = torch.logsumexp(score.unsqueeze(2) + h[:, t].unsqueeze(1) + trans, 1)
            score = torch.where(mask_t, score_t, score)
        score = score + self.end_trans
        return torch.logsumexp(score, 1)

    def _numerator(self, h: torch.Tensor, y: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        batch_size, seq_len, _ = h.size()
        arange_b = torch.arange(batch_size, device=h.device)
        score = self.start_trans[y[:, 0]] + h[arange_b, 0, y[:, 0]]
        for t in range(seq_len - 1):
            mask_t1 = self._mask_at(mask, t + 1)
            step = h[arange_b, t + 1, y[:, t + 1]] + self.trans_matrix[y[:, t], y[:, t + 1]]
            score = score + step * mask_t1
        last = y[arange_b, mask.sum(1) - 1]
        return score + self.end_trans[last]


class Tagger(nn.Module):
    def __init__(self, vocab_size: int, num_labels: int, hidden: int = 128) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab_size, hidden)
        self.lstm = nn.LSTM(hidden, hidden // 2, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(hidden, num_labels)
        self.crf = CRF(num_labels)

    def forward(self, tokens: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(self.emb(tokens))
        return -self.crf(self.proj(out), labels, mask).mean()


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args(argv)

    model = nn.DataParallel(Tagger(5000, 9)).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(args.epochs):
        tokens = torch.randint(0, 5000, (64, 40)).cuda()
        labels = torch.randint(0, 9, (64, 40)).cuda()
        mask = torch.ones(64, 40, dtype=torch.bool).cuda()
        loss = model(tokens, labels, mask).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()
