# source: https://github.com/argilla-io/biome-text/pull/159
# kind: cpu_accumulator
# bug: A classification head padded its (CUDA) per-label probabilities by concatenating a torch.zeros(...) tensor created on the CPU, which failed with "All input tensors must be on the same device" on GPU; the fix builds the padding on the probabilities' device.
# split: dev
import torch
import torch.nn as nn


class LabelHead(nn.Module):
    def __init__(self, hidden, labels):
        super().__init__()
        self.labels = labels
        self.proj = nn.Linear(hidden, len(labels))

    def forward(self, h):
        return torch.softmax(self.proj(h), dim=-1)

    def ranked(self, probs, n_known):
        full = torch.cat([probs[:n_known], torch.zeros(len(self.labels) - n_known)])  # bug: cpu_accumulator
        order = torch.argsort(full, descending=True).tolist()
        return [(self.labels[i], float(full[i])) for i in order]


if __name__ == "__main__":
    head = LabelHead(16, ["a", "b", "c", "d"]).to("cuda")
    p = head(torch.randn(16, device="cuda"))
    print(head.ranked(p, 3))
