# source: https://github.com/Shawn1993/cnn-text-classification-pytorch/issues/1
# also: https://github.com/Shawn1993/cnn-text-classification-pytorch/commit/0e47f985c84c31d176b1f8d4cc3c8d31b4be5650
# kind: other
# bug: the text CNN kept its per-width Conv2d layers in a plain Python list, so model.cuda() left them on the CPU (and out of parameters()); the fix wrapped them in nn.ModuleList.
# split: dev2
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class SentenceCNN(nn.Module):
    def __init__(self, vocab, dim, n_cls, widths=(3, 4, 5), maps=100):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.convs = [nn.Conv2d(1, maps, (w, dim)) for w in widths]  # bug: other
        self.out = nn.Linear(maps * len(widths), n_cls)

    def forward(self, tokens):
        x = self.emb(tokens).unsqueeze(1)
        feats = [F.relu(c(x)).squeeze(3) for c in self.convs]
        feats = [F.max_pool1d(f, f.size(2)).squeeze(2) for f in feats]
        return self.out(torch.cat(feats, 1))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--cuda", action="store_true")
    args = p.parse_args()
    net = SentenceCNN(5000, 128, 2)
    batch = torch.randint(0, 5000, (8, 40))
    if args.cuda:
        net, batch = net.cuda(), batch.cuda()
    print(net(batch).shape)
