# source: https://github.com/facebookresearch/metaseq/pull/290
# kind: tensor_no_device_in_forward
# bug: The decoder's cached causal mask was built from torch.zeros([L, L]) with no device, so the document-attention masking ran on the CPU on every call; the merged fix builds the mask on the input tensor's device (review asked for device= instead of a later .to()).
# split: dev
import torch
import torch.nn as nn


class DocDecoder(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self._future = torch.empty(0)

    def future_mask(self, x):
        n = x.size(1)
        if self._future.size(0) < n:
            self._future = torch.triu(torch.zeros([n, n]).fill_(float("-inf")), 1)  # bug: tensor_no_device_in_forward
        return self._future[:n, :n]

    def forward(self, x, doc_ids=None):
        mask = self.future_mask(x)
        if doc_ids is not None:
            cross_doc = doc_ids.cpu().unsqueeze(2) != doc_ids.cpu().unsqueeze(1)
            mask = mask.masked_fill(cross_doc, float("-inf"))
        scores = self.proj(x) @ x.transpose(1, 2)
        return torch.softmax(scores + mask.to(x), dim=-1)
