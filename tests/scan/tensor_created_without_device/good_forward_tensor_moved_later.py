# A tensor made in forward() from list data and moved by name before it meets the module's:
# `ids.cuda()`, `Variable(ids).cuda()`, `ids.to(x.device)` later in the same method. A host copy of
# list data cannot be avoided, and nothing mixes devices.
# expect: none
import torch
from torch import nn
from torch.autograd import Variable


class Speller(nn.Module):
    def __init__(self, vocab, letters, dim=8):
        super().__init__()
        self.vocab = vocab
        self.letters = letters
        self.embed = nn.Embedding(len(letters), dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)

    def forward(self, x, words):
        outs = torch.FloatTensor()
        for w in words:
            ids = torch.LongTensor([self.letters[c] for c in w])
            ids = ids.unsqueeze(0)
            if torch.cuda.is_available():
                h, _ = self.rnn(self.embed(Variable(ids).cuda()))
            else:
                h, _ = self.rnn(self.embed(Variable(ids)))
            outs = torch.cat((outs, h[:, -1].cpu()), 0)
        outs = outs.to(x.device)
        codes = torch.tensor([self.vocab.get(w, 0) for w in words])
        return x + outs.sum() + self.embed(codes.to(x.device)).sum()
