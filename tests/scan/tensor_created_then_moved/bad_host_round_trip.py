# A device tensor flipped in numpy: copied to the host and back at every forward, and cut off from
# the graph; and offset grids made on the host and copied over at every lookup.
import torch
from torch import nn


class Bidirectional(nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.rnn = nn.GRU(width, width, batch_first=True)

    def forward(self, seq):
        out, _ = self.rnn(seq)
        rev = torch.tensor(seq.cpu().detach().numpy()[:, ::-1].copy()).cuda()  # expect: code.tensor_created_then_moved
        back, _ = self.rnn(rev)
        return out + back


class Lookup:
    def __init__(self, radius=3):
        self.radius = radius

    def __call__(self, coords):
        r = self.radius
        dx = torch.linspace(-r, r, 2 * r + 1)
        dy = torch.linspace(-r, r, 2 * r + 1)
        grid = torch.stack(torch.meshgrid(dy, dx, indexing="ij"), dim=-1).to(coords.device)  # expect: code.tensor_created_then_moved
        return coords[:, None, None, :] + grid


model = Bidirectional().cuda()
