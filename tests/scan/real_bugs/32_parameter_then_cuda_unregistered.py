# source: https://github.com/pytorch/pytorch/issues/94828
# also: https://github.com/pytorch/pytorch/issues/17484
# kind: other
# bug: A module assigned nn.Parameter(...).cuda() to an attribute; .cuda() returns a plain tensor, so the weight was never registered (absent from parameters(), the optimizer and state_dict); maintainers confirmed and said to create the parameter on the device or move the whole module instead.
# split: test
import torch
import torch.nn as nn


class ShiftedLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.shift = nn.Parameter(torch.rand(n_in), requires_grad=True).cuda()  # bug: other
        self.lin = nn.Linear(n_in, n_out)

    def forward(self, x):
        return self.lin(x + self.shift)


def train(steps=100):
    model = ShiftedLinear(10, 20).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        x = torch.randn(8, 10, device="cuda")
        loss = model(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return [name for name, _ in model.named_parameters()]
