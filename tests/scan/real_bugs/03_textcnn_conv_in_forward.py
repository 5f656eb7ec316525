# source: https://github.com/graykode/nlp-tutorial/pull/34
# also: https://github.com/graykode/nlp-tutorial/commit/e785aa3d012468b4b35d7e756bfa83ed887feb5e
# kind: module_in_forward
# bug: The TextCNN tutorial built a fresh nn.Conv2d inside forward for every filter width, so those weights were never registered, trained or moved with the model; the fix creates them once in __init__ as an nn.ModuleList.
# split: dev
import torch
import torch.nn as nn
import torch.nn.functional as F


class SentenceCNN(nn.Module):
    def __init__(self, vocab, dim=8, widths=(2, 3, 4), maps=3, classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.widths = widths
        self.dim = dim
        self.maps = maps
        self.head = nn.Linear(maps * len(widths), classes)

    def forward(self, ids):
        x = self.emb(ids).unsqueeze(1)
        pooled = []
        for w in self.widths:
            feat = nn.Conv2d(1, self.maps, (w, self.dim))(x)  # bug: module_in_forward
            feat = F.relu(feat).squeeze(3)
            pooled.append(feat.max(dim=2).values)
        return self.head(torch.cat(pooled, dim=1))


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    net = SentenceCNN(vocab=50).to(dev)
    print(net(torch.randint(0, 50, (4, 7), device=dev)).shape)
