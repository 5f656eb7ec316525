# source: https://github.com/ndrplz/ConvLSTM_pytorch/pull/10
# also: https://github.com/ndrplz/ConvLSTM_pytorch/commit/6d61754197eaa84f58b79e09780a1ce282b600c0
# kind: per_step_host_alloc
# bug: the cell's init_hidden built its zero states as Variable(torch.zeros(...)).cuda() on every sequence, a host allocation plus copy that also forced CUDA; the fix allocated them with device= taken from the conv weight.
# split: test2
import torch
import torch.nn as nn
from torch.autograd import Variable


class GateCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super(GateCell, self).__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2)

    def zero_state(self, n, h, w):
        h0 = Variable(torch.zeros(n, self.hid_ch, h, w)).cuda()  # bug: per_step_host_alloc
        c0 = Variable(torch.zeros(n, self.hid_ch, h, w)).cuda()  # bug: per_step_host_alloc
        return h0, c0

    def forward(self, frame, state):
        h, c = state
        i, f, o, g = torch.split(self.gates(torch.cat([frame, h], 1)), self.hid_ch, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c


class GateStack(nn.Module):
    def __init__(self, in_ch, hid_ch):
        super(GateStack, self).__init__()
        self.cell = GateCell(in_ch, hid_ch)

    def forward(self, clip):
        n, t, _, h, w = clip.size()
        state = self.cell.zero_state(n, h, w)
        for step in range(t):
            state = self.cell(clip[:, step], state)
        return state[0]
