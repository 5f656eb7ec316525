# source: https://github.com/roserustowicz/crop-type-mapping/pull/92
# also: https://github.com/roserustowicz/crop-type-mapping/commit/021fe6f56e262fe42f9500b5c01a55c35cac5d20
# kind: per_step_host_alloc
# bug: the bidirectional branch of the convolutional-LSTM crop segmenter built its reversed input in every forward with `torch.tensor(inputs.cpu().detach().numpy()[::-1].copy(), dtype=torch.float32).cuda()`, a device-to-host copy, a numpy flip and a fresh host tensor copied back to the GPU on every step (which also cut the reversed branch off from the input's graph); the PR ("uses torch call so no need to move a tensor to cpu and then back to gpu") replaces it with `torch.flip(inputs, dims=[1])` on the device.
# split: test11
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = torch.chunk(self.gates(torch.cat([x, h], dim=1)), 4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class ConvLSTM(nn.Module):
    def __init__(self, in_ch, hid_ch):
        super().__init__()
        self.cell = ConvLSTMCell(in_ch, hid_ch)

    def forward(self, seq):
        b, t, _, hgt, wid = seq.shape
        h = seq.new_zeros(b, self.cell.hid_ch, hgt, wid)
        c = seq.new_zeros(b, self.cell.hid_ch, hgt, wid)
        outs = []
        for step in range(t):
            h, c = self.cell(seq[:, step], (h, c))
            outs.append(h)
        return torch.stack(outs, dim=1), (h, c)


class CropSegmenter(nn.Module):
    def __init__(self, in_ch=13, hid_ch=64, num_classes=5, bidirectional=True):
        super().__init__()
        self.fwd = ConvLSTM(in_ch, hid_ch)
        self.bidirectional = bidirectional
        self.head = nn.Conv2d(hid_ch * (2 if bidirectional else 1), num_classes, 3, padding=1)

    def forward(self, inputs):
        outs, _ = self.fwd(inputs)
        final = outs.mean(dim=1)
        if self.bidirectional:
            rev = torch.tensor(inputs.cpu().detach().numpy()[:, ::-1].copy(), dtype=torch.float32).cuda()  # bug: per_step_host_alloc
            _, (rev_h, _) = self.fwd(rev)
            final = torch.cat([final, rev_h], dim=1)
        return torch.log_softmax(self.head(final), dim=1)


def train(model, loader, epochs=1, lr=1e-3):
    model = model.cuda()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = nn.functional.nll_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
