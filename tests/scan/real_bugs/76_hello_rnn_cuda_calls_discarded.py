# source: https://github.com/hunkim/PyTorchZeroToAll/pull/6
# also: https://github.com/hunkim/PyTorchZeroToAll/commit/d7e3a11e6ccc8db172b7ba1e9d0115d724156819
# kind: to_result_discarded
# bug: the GPU RNN example called inputs.cuda(), labels.cuda() and h_0.cuda() as statements, discarding the returned CUDA copies, so CPU tensors reached the CUDA model; the fix assigned the results.
# split: dev2
import torch
import torch.nn as nn

chars = ["h", "i", "e", "l", "o"]
seq_in = [[0, 1, 0, 2, 3, 3]]
seq_out = [1, 0, 2, 3, 3, 4]
inputs = torch.eye(len(chars))[torch.tensor(seq_in)]
labels = torch.tensor(seq_out)

if torch.cuda.is_available():
    inputs.cuda()  # bug: to_result_discarded
    labels.cuda()  # bug: to_result_discarded


class CharRNN(nn.Module):
    def __init__(self, n=5, hid=5):
        super().__init__()
        self.hid = hid
        self.rnn = nn.RNN(n, hid, batch_first=True)

    def forward(self, x):
        h_0 = torch.zeros(1, x.size(0), self.hid)
        if torch.cuda.is_available():
            h_0.cuda()  # bug: to_result_discarded
        out, _ = self.rnn(x, h_0)
        return out.reshape(-1, self.hid)


model = CharRNN()
if torch.cuda.is_available():
    model.cuda()
opt = torch.optim.Adam(model.parameters(), lr=0.1)
for epoch in range(50):
    loss = nn.functional.cross_entropy(model(inputs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
